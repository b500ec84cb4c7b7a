import { ET_INPUT_VARIABLES, type EtInputs, type TimeRange } from '../src/grid/grid-source.js';
import { SyntheticSource } from '../src/synthetic/index.js';
import { PointChunkCache } from '../src/synthetic/point-chunk-cache.js';

/** Hourly point reads, of one variable and of the five ET inputs, through the chunk caches of whole days (point-chunk-cache.ts). */
const NOW = Date.UTC(2026, 5, 15, 12, 34);
const HOUR_MS = 3_600_000;
const ET_KEYS = Object.keys(ET_INPUT_VARIABLES) as (keyof EtInputs<unknown>)[];

describe('SyntheticSource: hourly point reads through the chunk caches', () => {
  // Eight chunks of a day: the year and the ranges after it push the first ranges' days out.
  const cached = new SyntheticSource({ now: () => NOW, pointEtChunks: 8, pointHourChunks: 8 });
  const plain = new SyntheticSource({ now: () => NOW, pointEtChunks: 0, pointHourChunks: 0 });
  const ranges: TimeRange[] = [
    // the 49 hours of a default series: from 24 hours before the next hour to 25 after it
    { startMs: Date.UTC(2026, 5, 14, 13), endMs: Date.UTC(2026, 5, 16, 13) },
    // one hour; a day's last and the next day's first; whole days on the chunk edges
    { startMs: Date.UTC(2026, 5, 14, 13), endMs: Date.UTC(2026, 5, 14, 13) },
    { startMs: Date.UTC(2026, 5, 13, 23), endMs: Date.UTC(2026, 5, 14, 0) },
    { startMs: Date.UTC(2026, 5, 10), endMs: Date.UTC(2026, 5, 12, 23) },
    // a year, over the cache's capacity
    { startMs: Date.UTC(2025, 5, 14, 11), endMs: Date.UTC(2026, 5, 15, 12) },
  ];

  it('equal the reads computed for exactly their hours, for ranges on and across day edges, read again after eviction', async () => {
    for (const [lon, lat] of [
      [-93.6319, 42.0308],
      [179.999, -16.5],
    ]) {
      for (const r of [...ranges, ...ranges.slice(0, 2)]) {
        const inputs = await cached.etInputsAt(lon!, lat!, r);
        for (const k of ET_KEYS) {
          const single = await plain.pointSeries(ET_INPUT_VARIABLES[k], lon!, lat!, r);
          for (const read of [inputs[k], await cached.pointSeries(ET_INPUT_VARIABLES[k], lon!, lat!, r)]) {
            expect([read.startMs, read.stepMs, read.values.length]).toEqual([single.startMs, HOUR_MS, single.values.length]);
            expect(Array.from(read.values)).toEqual(Array.from(single.values));
            const n = single.values.length;
            expect([0, n - 1].map((i) => read.productOf(i))).toEqual([0, n - 1].map((i) => single.productOf(i)));
          }
        }
      }
    }
  });

  it('hands each read arrays of its own', async () => {
    const r = ranges[0]!;
    const first = await cached.etInputsAt(-93.6319, 42.0308, r);
    const copy = Array.from(first.shortwave.values);
    first.shortwave.values.fill(Number.NaN);
    expect(Array.from((await cached.etInputsAt(-93.6319, 42.0308, r)).shortwave.values)).toEqual(copy);
    const single = await cached.pointSeries('air_temperature', -93.6319, 42.0308, r);
    const temperature = Array.from(single.values);
    single.values.fill(Number.NaN);
    expect(Array.from((await cached.pointSeries('air_temperature', -93.6319, 42.0308, r)).values)).toEqual(temperature);
  });
});

describe('PointChunkCache: reads shorter than minSteps', () => {
  it('are computed for exactly their steps and keep nothing; longer reads keep whole chunks', () => {
    const calls: [number, number][] = [];
    const compute = (first: number, steps: number) => {
      calls.push([first, steps]);
      return { values: Float32Array.from({ length: 4 * steps }, (_, i) => first + Math.floor(i / 4)) };
    };
    const cache = new PointChunkCache(['values'], 24, 100, 24);
    expect(Array.from(cache.read(0, 0, 1, 30, 1, compute).values)).toEqual([30, 30, 30, 30]);
    cache.read(0, 0, 1, 30, 23, compute);
    expect([calls, cache.size]).toEqual([
      [
        [30, 1],
        [30, 23],
      ],
      0,
    ]);
    cache.read(0, 0, 1, 30, 24, compute);
    expect(calls[2]).toEqual([24, 48]);
    expect(cache.size).toBe(2);
  });
});
