import { createCatalog, forecastBoundaryMs, FrameIndex, frameId } from '@fieldcast/weather';
import { isForecastFrame, recentFrames } from '../src/domain/frames.js';

const catalog = createCatalog();
const temperature = catalog.product('air-temperature')!;
const HOUR = 3_600_000;

describe('frames of the tiles area', () => {
  const nowMs = Date.now();
  const index = new FrameIndex(catalog.products());
  // a lookup leaves the index growing: stopped, so nothing of it outlives the file
  afterAll(() => index.stop());

  it('lists the newest frames first, the forecast run’s before the analysis, each found by its id', async () => {
    const frames = recentFrames(temperature, nowMs, 500, index);
    expect(frames.map((f) => f.validMs)).toEqual(frames.map((_, k) => frames[0]!.validMs - k * HOUR));
    const analysis = frames.find((f) => !isForecastFrame(f))!;
    expect(analysis.validMs).toBe(forecastBoundaryMs(nowMs));
    expect(analysis.id).toBe(frameId(temperature, analysis.validMs));
    for (const f of [frames[0]!, analysis]) expect((await index.find(f.id, nowMs))?.validMs).toBe(f.validMs);
  });

  it('lists nothing for a product without frames', () => {
    expect(recentFrames(catalog.product('surface-altitude')!, nowMs, 5, index)).toEqual([]);
  });
});
