import { seriesKey } from '../src/series-cache.js';

describe('the series cache key (docs/decisions/0143-model-series-cache.md)', () => {
  it('keys on run, variable, point and the valid times selected', () => {
    expect(seriesKey('r', 'temperature', 42, -93, [1000, 2000])).not.toBe(seriesKey('r', 'temperature', 42, -93, [1000]));
    expect(seriesKey('r', 'temperature', 42, -93, [1000])).not.toBe(seriesKey('r', 'temperature', 42, -93, [2000]));
    expect(seriesKey('r', 'temperature', 42, -93, [])).not.toBe(seriesKey('r', 'dewPoint', 42, -93, []));
    expect(seriesKey('r', 'temperature', 42, -93, [])).not.toBe(seriesKey('r', 'temperature', 42, -93.1, []));
    expect(seriesKey('r2', 'temperature', 42, -93, [])).not.toBe(seriesKey('r', 'temperature', 42, -93, []));
  });
});
