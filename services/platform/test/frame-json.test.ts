import { createCatalog, frameRecord, frameZoomLevels, latestProductRun, productFrames } from '@fieldcast/weather';
import { framesJson } from '../src/routes/frame-json.js';

describe('framesJson', () => {
  it('writes exactly what JSON.stringify writes, for analysis and forecast frames', () => {
    const now = Date.UTC(2025, 5, 15, 10, 20);
    const air = createCatalog().product('air-temperature')!;
    expect(latestProductRun(air, now)).not.toBeNull();
    const records = productFrames(air, now, Date.UTC(2025, 5, 15, 8), Date.UTC(2025, 5, 15, 12), 10).map((f) =>
      frameRecord(f, frameZoomLevels(0.01)),
    );
    expect(new Set(records.map((r) => r.forecast === null))).toEqual(new Set([true, false]));
    expect(framesJson(records)).toBe(JSON.stringify(records));
    expect(framesJson([])).toBe('[]');
  });
});
