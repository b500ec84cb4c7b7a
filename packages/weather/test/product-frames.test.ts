import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  createCatalog,
  FrameIndex,
  frameIndexOf,
  frameId,
  frameRecord,
  frameZoomLevels,
  forecastFrameId,
  latestProductRun,
  productFrames,
  productFramesVersion,
  productRuns,
  productTimeRange,
  runFrames,
  findProductRun,
  type ProductDef,
  variableFramesEndMs,
} from '../src/index.js';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.UTC(2025, 5, 15, 10, 20);
const cat = createCatalog();
const air = cat.product('air-temperature')!;
const gdd = cat.product('growing-degree-days')!;
const radar = cat.product('precipitation-rate-north-america')!;

describe('product frames (docs/decisions/0120-product-frames-and-forecast-runs.md)', () => {
  it('lists analysis frames on the cadence across a year boundary, newest first by default', () => {
    const frames = productFrames(air, NOW, Date.UTC(2019, 11, 31, 22), Date.UTC(2020, 0, 1, 1), 100);
    expect(frames.map((f) => f.validMs)).toEqual([
      Date.UTC(2020, 0, 1, 1),
      Date.UTC(2020, 0, 1, 0),
      Date.UTC(2019, 11, 31, 23),
      Date.UTC(2019, 11, 31, 22),
    ]);
    expect(frames.every((f) => f.run === null && f.id === frameId(air, f.validMs))).toBe(true);
  });

  it('steps daily frames over the end of February in a leap year and of a month', () => {
    const asc = productFrames(gdd, NOW, Date.UTC(2020, 1, 27, 12), Date.UTC(2020, 2, 2), 10, 'asc');
    expect(asc.map((f) => new Date(f.validMs).toISOString().slice(0, 10))).toEqual([
      '2020-02-28',
      '2020-02-29',
      '2020-03-01',
      '2020-03-02',
    ]);
  });

  it('gives the frames after the forecast boundary to the latest published run, up to its end', () => {
    const run = latestProductRun(air, NOW)!;
    expect(run.initMs).toBe(Date.UTC(2025, 5, 15, 6));
    const range = productTimeRange(air, NOW);
    expect(range.endMs).toBe(run.initMs + 384 * H);
    const around = productFrames(air, NOW, Date.UTC(2025, 5, 15, 9), Date.UTC(2025, 5, 15, 12), 10, 'asc');
    expect(around.map((f) => [new Date(f.validMs).getUTCHours(), f.run?.id ?? null])).toEqual([
      [9, null],
      [10, null],
      [11, run.id],
      [12, run.id],
    ]);
    expect(around[2]!.id).toBe(forecastFrameId(air, run.initMs, Date.UTC(2025, 5, 15, 11)));
    const last = productFrames(air, NOW, 0, Number.POSITIVE_INFINITY, 1);
    expect(last[0]!.validMs).toBe(range.endMs);
  });

  it('ends an observed product at the current hour', () => {
    expect(productTimeRange(radar, NOW).endMs).toBe(Date.UTC(2025, 5, 15, 10));
    expect(productRuns(radar, NOW)).toEqual([]);
  });

  it("ends a variable's frames with the last frame of the products showing it, the latest of them (0508)", () => {
    const products = cat.products();
    // the global forecast product's newest published run, not the observed North American one's current hour
    expect(variableFramesEndMs(products, 'precipitation_rate', NOW)).toBe(Date.UTC(2025, 5, 15, 6) + 384 * H);
    expect(variableFramesEndMs(products, 'precipitation_rate', NOW)).toBe(
      productFrames(cat.product('precipitation-rate')!, NOW, 0, Number.POSITIVE_INFINITY, 1)[0]!.validMs,
    );
    // a daily product's 7-day horizon, on its cadence
    expect(variableFramesEndMs(products, 'air_temperature_daily_max', NOW)).toBe(Date.UTC(2025, 5, 22));
    // no product shows the wind speed in frames; the static terrain has none
    expect(variableFramesEndMs(products, 'wind_speed', NOW)).toBeNull();
    expect(variableFramesEndMs(products, 'surface_altitude', NOW)).toBeNull();
  });

  it('lists published, unexpired runs and each run’s frames', () => {
    const runs = productRuns(air, NOW, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, 1000);
    // every 6 h, published 3.5 h after init, kept 7 days: 06Z back to 12Z seven days earlier
    expect(runs.length).toBe(28);
    expect(runs[0]!.initMs).toBe(Date.UTC(2025, 5, 15, 6));
    expect(runs.at(-1)!.initMs).toBe(Date.UTC(2025, 5, 8, 12));
    expect(findProductRun(air, runs[3]!.id.toUpperCase(), NOW)?.initMs).toBe(runs[3]!.initMs);
    expect(findProductRun(air, runs[3]!.id, runs[3]!.expirationMs)).toBeUndefined();
    const frames = runFrames(air, runs[0]!, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, 1000, 'asc');
    expect(frames.length).toBe(385);
    expect(frames[0]!.validMs).toBe(runs[0]!.initMs);
    const rec = frameRecord(frames[0]!, frameZoomLevels(0.01));
    expect(rec).toMatchObject({
      runTime: '2025-06-15T06:00:00Z',
      validTime: '2025-06-15T06:00:00Z',
      creationTime: '2025-06-15T09:30:00Z',
      expirationTime: '2025-06-22T06:00:00Z',
      tileSize: 256,
      forecast: `/forecasts/${runs[0]!.id}`,
      product: `/products/${air.id}`,
    });
  });
});

/** Frames an index holds after a lookup at NOW grew it. */
async function countAfterFind(index: FrameIndex): Promise<number> {
  await index.find('00000000-0000-5000-8000-000000000000', NOW);
  return index.count;
}

describe('FrameIndex', () => {
  const small: ProductDef[] = [
    { ...air, startTime: '2024-01-01T00:00:00Z' },
    { ...radar, startTime: '2025-06-01T00:00:00Z' },
  ];

  it('finds analysis and forecast frames by id, and nothing for other ids', async () => {
    const index = new FrameIndex(small);
    const [p, r] = small as [ProductDef, ProductDef];
    const old = await index.find(frameId(p, Date.UTC(2024, 2, 1, 7)), NOW);
    expect(old?.validMs).toBe(Date.UTC(2024, 2, 1, 7));
    expect(old?.product.name).toBe('air-temperature');
    expect((await index.find(frameId(r, Date.UTC(2025, 5, 15, 10)).toUpperCase(), NOW))?.product.name).toBe(radar.name);
    const run = latestProductRun(p, NOW)!;
    const f = await index.find(forecastFrameId(p, run.initMs, Date.UTC(2025, 5, 20)), NOW);
    expect(f?.run?.id).toBe(run.id);
    // a frame after the current hour is not an analysis frame yet
    expect(await index.find(frameId(r, Date.UTC(2025, 5, 15, 11)), NOW)).toBeUndefined();
    expect(await index.find(frameId(r, Date.UTC(2025, 5, 15, 11)), NOW + H)).toBeDefined();
    expect(await index.find('00000000-0000-5000-8000-000000000000', NOW)).toBeUndefined();
    expect(await index.find('not-a-uuid', NOW)).toBeUndefined();
    // up to 11Z (the last lookup's hour): every hour of each product, and no more
    const hours = (from: number) => (Date.UTC(2025, 5, 15, 11) - from) / H + 1;
    expect(index.count).toBe(hours(Date.UTC(2024, 0, 1)) + hours(Date.UTC(2025, 5, 1)));
  });

  it('hands lists the ids it holds, the same as computed ones', async () => {
    const index = new FrameIndex(small);
    const p = small[0]!;
    await index.find(frameId(p, Date.UTC(2024, 0, 1)), NOW);
    const computed = productFrames(p, NOW, Date.UTC(2025, 5, 15), Number.POSITIVE_INFINITY, 100, 'asc');
    const read = productFrames(p, NOW, Date.UTC(2025, 5, 15), Number.POSITIVE_INFINITY, 100, 'asc', index);
    expect(read.map((f) => f.id)).toEqual(computed.map((f) => f.id));
    // both kinds: analysis frames up to 10Z, the latest run's after it
    expect(new Set(read.map((f) => f.run === null))).toEqual(new Set([true, false]));
    // a product the index does not know is computed
    expect(index.analysis(gdd, Date.UTC(2020, 0, 1))).toBe(frameId(gdd, Date.UTC(2020, 0, 1)));
  });

  it('one index per list of products: the areas of a process share what warming one built', async () => {
    const shared = frameIndexOf(small);
    expect(frameIndexOf(small)).toBe(shared);
    expect(frameIndexOf([...small])).not.toBe(shared);
    const warming = shared.warm(NOW);
    // warm grows it in the background: a lookup through the other handle finds what that built
    expect((await frameIndexOf(small).find(frameId(small[1]!, Date.UTC(2025, 5, 2)), NOW))?.product.name).toBe(radar.name);
    await warming;
    expect(shared.count).toBe(await countAfterFind(new FrameIndex(small)));
  });

  it('builds newest frames first: a recent frame is found after a few chunks, not after the whole index (0321)', async () => {
    const long: ProductDef[] = [
      { ...air, startTime: '2016-01-01T00:00:00Z' },
      { ...radar, startTime: '2020-01-01T00:00:00Z' },
    ];
    const total = await countAfterFind(new FrameIndex(long));
    const index = new FrameIndex(long);
    const recent = Date.UTC(2025, 5, 14, 3);
    expect((await index.find(frameId(long[1]!, recent), NOW))?.validMs).toBe(recent);
    const whenFound = index.count;
    // the two products' last weeks are a few chunks of 4,096 frames; the index holds about 130,000
    expect(whenFound).toBeLessThan(total / 10);
    // an older frame of the other product is found as its chunk comes in, the same frame as computed
    const older = Date.UTC(2023, 0, 1);
    const f = await index.find(frameId(long[0]!, older), NOW);
    expect(f?.validMs).toBe(older);
    expect(index.count).toBeLessThan(total);
    expect(index.analysis(long[0]!, older)).toBe(frameId(long[0]!, older));
    // an id that is no frame waits for the whole index, and finds nothing
    expect(await countAfterFind(index)).toBe(total);
  });

  it('stops growing when a closing service asks, keeps what it indexed, and grows on at the next lookup', async () => {
    const long: ProductDef[] = [{ ...air, startTime: '2016-01-01T00:00:00Z' }];
    const total = await countAfterFind(new FrameIndex(long));
    const index = new FrameIndex(long);
    const warming = index.warm(NOW);
    await nextTurn();
    await index.stop();
    await warming;
    const stoppedAt = index.count;
    expect(stoppedAt).toBeGreaterThan(0);
    expect(stoppedAt).toBeLessThan(total);
    // nothing runs on: the count holds over later turns of the event loop
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(index.count).toBe(stoppedAt);
    // what it holds is still found; an old frame, not yet indexed, is found once it grows on
    const oldest = Date.UTC(2016, 0, 1);
    expect((await index.find(frameId(long[0]!, oldest), NOW))?.validMs).toBe(oldest);
    expect(index.count).toBe(total);
  });

  it('a lookup waiting when the growth is stopped still gets its frame', async () => {
    const long: ProductDef[] = [{ ...air, startTime: '2016-01-01T00:00:00Z' }];
    const index = new FrameIndex(long);
    const oldest = Date.UTC(2016, 0, 1);
    const finding = index.find(frameId(long[0]!, oldest), NOW);
    await nextTurn();
    await index.stop();
    expect((await finding)?.validMs).toBe(oldest);
  });

  it('once stopped, grows only for the lookups that wait, up to their frames; a list does not grow it, a starting service does', async () => {
    const long: ProductDef[] = [{ ...air, startTime: '2016-01-01T00:00:00Z' }];
    const total = await countAfterFind(new FrameIndex(long));
    const index = new FrameIndex(long);
    void index.warm(NOW);
    // a lookup answered while the warm-up grows the index waits for that growth to end to grow it itself
    const recent = Date.UTC(2025, 4, 16);
    expect((await index.find(frameId(long[0]!, recent), NOW))?.validMs).toBe(recent);
    await index.stop();
    const stoppedAt = index.count;
    for (let i = 0; i < 20; i++) await nextTurn();
    expect(index.count).toBe(stoppedAt);
    const older = Date.UTC(2022, 0, 1);
    expect((await index.find(frameId(long[0]!, older), NOW))?.validMs).toBe(older);
    const found = index.count;
    expect(found).toBeGreaterThan(stoppedAt);
    expect(found).toBeLessThan(total);
    await index.warm(NOW);
    for (let i = 0; i < 20; i++) await nextTurn();
    expect(index.count).toBe(found);
    await index.start(NOW);
    expect(index.count).toBe(total);
  });

  it('a starting service holds the ids of every live run, so a first forecast frame computes none', async () => {
    const index = new FrameIndex(small);
    expect(index.runsHeld).toBe(0);
    await index.start(NOW);
    const live = small.reduce((n, p) => n + productRuns(p, NOW, -Infinity, Infinity, Infinity).length, 0);
    expect(live).toBeGreaterThan(0);
    expect(index.runsHeld).toBe(live);
    const p = small[0]!;
    const run = latestProductRun(p, NOW)!;
    expect((await index.find(forecastFrameId(p, run.initMs, Date.UTC(2025, 5, 20)), NOW))?.run?.id).toBe(run.id);
    expect(index.runsHeld).toBe(live);
  });

  it('answers concurrent lookups while it grows', async () => {
    const index = new FrameIndex(small);
    const ids = [0, 1, 2, 3].map((k) => frameId(small[0]!, Date.UTC(2024, 0, 1) + k * D));
    const found = await Promise.all(ids.map((id) => index.find(id, NOW)));
    expect(found.map((f) => f?.id)).toEqual(ids);
  });
});

describe('productFramesVersion', () => {
  // Every product with frames (a frame's id names its run), at 15-minute steps over two days: the hour turning, runs initialised
  // every 6 hours and published 210 or 45 minutes later.
  it('is the same at two instants only when every window gives the same frames', () => {
    const products = cat.products().filter((p) => p.hasFrames && p.cadenceMinutes > 0);
    expect(products.some((p) => latestProductRun(p, NOW) !== null)).toBe(true);
    for (const p of products) {
      const seen = new Map<string, string>();
      for (let now = NOW; now < NOW + 2 * D; now += 15 * 60_000) {
        const frames = productFrames(p, now, NOW - 6 * H, NOW + 12 * D, 1000, 'asc')
          .map((f) => f.id)
          .join();
        const version = productFramesVersion(p, now);
        const before = seen.get(version);
        if (before !== undefined && before !== frames)
          throw new Error(`${p.name}: frames changed at ${new Date(now).toISOString()} under version ${version}`);
        seen.set(version, frames);
      }
      // it moves on: at least once an hour
      expect(seen.size).toBeGreaterThanOrEqual(48);
    }
  });
});
