import { createCatalog, forecastBoundaryMs, frameId } from '@fieldcast/weather';
import { FrameIndex, recentFrames, TILE_HISTORY_DAYS } from '../src/domain/frames.js';

const catalog = createCatalog();
const temperature = catalog.product('air-temperature')!;
const daily = catalog.product('air-temperature-daily-max')!;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('frame index', () => {
  const now = new Date();
  const boundary = forecastBoundaryMs(now.getTime());
  const index = new FrameIndex(catalog, () => now);

  it('finds frames of the past, of the forecast and of daily products, by id in any case', async () => {
    for (const [p, t] of [
      [temperature, boundary - 3 * HOUR],
      [temperature, boundary + 100 * HOUR],
      [temperature, boundary - 300 * DAY],
      [daily, Math.floor(boundary / DAY) * DAY - 10 * DAY],
    ] as const) {
      const found = await index.find(frameId(p, t).toUpperCase());
      expect(found).toMatchObject({ product: { name: p.name }, validMs: t });
    }
  });

  it(`serves ${TILE_HISTORY_DAYS} days of history and not a frame older, nor one off the cadence or past the forecast`, async () => {
    expect(await index.find(frameId(temperature, boundary - (TILE_HISTORY_DAYS + 1) * DAY))).toBeUndefined();
    expect(await index.find(frameId(temperature, boundary - 3 * HOUR + 60_000))).toBeUndefined();
    expect(await index.find(frameId(temperature, boundary + 17 * DAY))).toBeUndefined();
  });

  it('lists the newest frames of a product, newest first, and nothing for a product without frames', () => {
    const frames = recentFrames(temperature, now.getTime(), 5);
    expect(frames.map((f) => f.validMs)).toEqual([0, 1, 2, 3, 4].map((k) => frames[0]!.validMs - k * HOUR));
    expect(frames[0]!.id).toBe(frameId(temperature, frames[0]!.validMs));
    expect(recentFrames(catalog.product('surface-altitude')!, now.getTime(), 5)).toEqual([]);
  });
});
