import { createCatalog, forecastBoundaryMs, FrameIndex, frameId } from '@fieldcast/weather';
import { frameMayChange, recentFrames } from '../src/domain/frames.js';

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
    const analysis = frames.find((f) => f.run === null)!;
    expect(analysis.validMs).toBe(forecastBoundaryMs(nowMs));
    expect(analysis.id).toBe(frameId(temperature, analysis.validMs));
    for (const f of [frames[0]!, analysis]) expect((await index.find(f.id, nowMs))?.validMs).toBe(f.validMs);
  });

  it('a frame may change while it holds forecast values: a run’s, or a daily one whose day is not over everywhere', () => {
    const boundary = forecastBoundaryMs(nowMs);
    const frames = recentFrames(temperature, nowMs, 500, index);
    expect(frames.filter((f) => frameMayChange(f, boundary)).every((f) => f.run !== null)).toBe(true);
    const daily = catalog.product('air-temperature-daily-max')!;
    const DAY = 24 * HOUR;
    const days = recentFrames(daily, nowMs, 30, index).filter((f) => f.run === null);
    // local day D ends at D + 36 h UTC at longitude -180: the last two days' frames are not final yet
    const today = Math.floor(boundary / DAY) * DAY;
    expect(days[0]!.validMs).toBe(today);
    for (const f of days) expect(frameMayChange(f, boundary)).toBe(f.validMs + 36 * HOUR > boundary);
    expect(frameMayChange(days[0]!, boundary)).toBe(true);
    expect(
      frameMayChange(
        days.find((f) => f.validMs === today - 2 * DAY)!,
        boundary,
      ),
    ).toBe(false);
  });

  it('lists nothing for a product without frames', () => {
    expect(recentFrames(catalog.product('surface-altitude')!, nowMs, 5, index)).toEqual([]);
  });
});
