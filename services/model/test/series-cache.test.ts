import { seriesKey } from '../src/series-cache.js';

describe('the series cache key (docs/decisions/0143-model-series-cache.md)', () => {
  it('keys on the weather served, run, variable, point and the valid times selected', () => {
    expect(seriesKey('w#0', 'r', 'temperature', 42, -93, [1000, 2000])).not.toBe(seriesKey('w#0', 'r', 'temperature', 42, -93, [1000]));
    expect(seriesKey('w#0', 'r', 'temperature', 42, -93, [1000])).not.toBe(seriesKey('w#0', 'r', 'temperature', 42, -93, [2000]));
    expect(seriesKey('w#0', 'r', 'temperature', 42, -93, [])).not.toBe(seriesKey('w#0', 'r', 'dewPoint', 42, -93, []));
    expect(seriesKey('w#0', 'r', 'temperature', 42, -93, [])).not.toBe(seriesKey('w#0', 'r', 'temperature', 42, -93.1, []));
    expect(seriesKey('w#0', 'r2', 'temperature', 42, -93, [])).not.toBe(seriesKey('w#0', 'r', 'temperature', 42, -93, []));
    // A sync that changes the stores served changes the weather a synthetic run reads.
    expect(seriesKey('w#1', 'r', 'temperature', 42, -93, [1000])).not.toBe(seriesKey('w#0', 'r', 'temperature', 42, -93, [1000]));
  });
});
