import type { TimeRange } from '../src/grid/grid-source.js';
import { CHUNK_DAYS, PointExtremesCache } from '../src/synthetic/extremes-cache.js';
import { SyntheticSource } from '../src/synthetic/index.js';

/** A stand-in computation: day d of cell c is d + c / 10 (max) and -(d + c / 10) (min). */
function counting(): {
  calls: [number, number][];
  compute: (firstDay: number, days: number) => { tmax: Float32Array; tmin: Float32Array };
} {
  const calls: [number, number][] = [];
  return {
    calls,
    compute: (firstDay, days) => {
      calls.push([firstDay, days]);
      const tmax = new Float32Array(4 * days),
        tmin = new Float32Array(4 * days);
      for (let d = 0; d < days; d++)
        for (let c = 0; c < 4; c++) [tmax[4 * d + c], tmin[4 * d + c]] = [firstDay + d + c / 10, -(firstDay + d + c / 10)];
      return { tmax, tmin };
    },
  };
}

describe('PointExtremesCache', () => {
  it('returns the days asked for, computing each run of missing chunks once', () => {
    const cache = new PointExtremesCache(100);
    const { calls, compute } = counting();
    const d0 = 3 * CHUNK_DAYS + 10,
      n = 2 * CHUNK_DAYS;
    const got = cache.read(1, 2, 3, d0, n, compute);
    expect(calls).toEqual([[3 * CHUNK_DAYS, 3 * CHUNK_DAYS]]);
    for (let d = 0; d < n; d++)
      for (let c = 0; c < 4; c++)
        expect([got.tmax[4 * d + c], got.tmin[4 * d + c]]).toEqual([Math.fround(d0 + d + c / 10), Math.fround(-(d0 + d + c / 10))]);
    // a wider read computes only what is missing, and a repeated one nothing
    cache.read(1, 2, 3, 2 * CHUNK_DAYS, 5 * CHUNK_DAYS, compute);
    expect(calls.slice(1)).toEqual([
      [2 * CHUNK_DAYS, CHUNK_DAYS],
      [6 * CHUNK_DAYS, CHUNK_DAYS],
    ]);
    cache.read(1, 2, 3, d0, n, compute);
    expect(calls).toHaveLength(3);
    // another block is another key
    cache.read(1, 2, 4, d0, 1, compute);
    expect(calls).toHaveLength(4);
  });

  it('keeps at most `capacity` chunks, least recently used out, and hands out copies', () => {
    const cache = new PointExtremesCache(3);
    const { calls, compute } = counting();
    for (let k = 0; k < 10; k++) {
      cache.read(0, 0, 1, k * CHUNK_DAYS, CHUNK_DAYS, compute);
      expect(cache.size).toBeLessThanOrEqual(3);
    }
    expect(cache.size).toBe(3);
    cache.read(0, 0, 1, 7 * CHUNK_DAYS, 1, compute); // touch chunk 7: chunk 8 is now the oldest
    cache.read(0, 0, 1, 20 * CHUNK_DAYS, 1, compute);
    const before = calls.length;
    cache.read(0, 0, 1, 7 * CHUNK_DAYS, 1, compute);
    cache.read(0, 0, 1, 9 * CHUNK_DAYS, 1, compute);
    expect(calls.length).toBe(before);
    cache.read(0, 0, 1, 8 * CHUNK_DAYS, 1, compute);
    expect(calls.length).toBe(before + 1);
    const a = cache.read(0, 0, 1, 8 * CHUNK_DAYS, 2, compute);
    a.tmax.fill(Number.NaN);
    expect(cache.read(0, 0, 1, 8 * CHUNK_DAYS, 2, compute).tmax[0]).toBe(8 * CHUNK_DAYS);
  });

  it('keeps nothing at capacity 0', () => {
    const cache = new PointExtremesCache(0);
    const { calls, compute } = counting();
    cache.read(0, 0, 1, 0, 10, compute);
    cache.read(0, 0, 1, 0, 10, compute);
    expect([cache.size, calls.length]).toEqual([0, 2]);
  });
});

describe('SyntheticSource: point daily extremes through the chunk cache', () => {
  it('equal the values computed without a cache, for ranges on and across chunk edges', async () => {
    const now = () => Date.UTC(2025, 0, 1);
    const cached = new SyntheticSource({ now, pointCacheChunks: 8 }),
      plain = new SyntheticSource({ now, pointCacheChunks: 0 });
    const day = (d: number) => d * 86_400_000;
    const ranges: TimeRange[] = [
      { startMs: Date.UTC(2024, 0, 1), endMs: Date.UTC(2024, 11, 31) },
      { startMs: day(300 * CHUNK_DAYS - 1), endMs: day(300 * CHUNK_DAYS) },
      { startMs: Date.UTC(2024, 5, 1), endMs: Date.UTC(2024, 5, 1) },
      { startMs: Date.UTC(2023, 11, 1), endMs: Date.UTC(2024, 2, 1) },
    ];
    for (const [lon, lat] of [
      [-93.6319, 42.0308],
      [179.999, 10.5],
    ]) {
      for (const r of [...ranges, ...ranges]) {
        const a = await cached.dailyExtremesAt(lon!, lat!, r),
          b = await plain.dailyExtremesAt(lon!, lat!, r);
        expect(Array.from(a.tmax.values)).toEqual(Array.from(b.tmax.values));
        expect(Array.from(a.tmin.values)).toEqual(Array.from(b.tmin.values));
        expect(Array.from((await cached.pointSeries('air_temperature_daily_min', lon!, lat!, r)).values)).toEqual(
          Array.from(b.tmin.values),
        );
      }
    }
  });
});
