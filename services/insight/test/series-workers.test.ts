import { problemOf } from '@fieldcast/kit';
import { gridRequestErrors } from '@fieldcast/runtime';
import type { HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import { SYNTHETIC_START_MS, SyntheticSource } from '@fieldcast/weather';
import type { AssetRecord } from '../src/domain/assets.js';
import { hourlySeriesJson } from '../src/domain/hourly-series.js';
import { seriesComputer } from '../src/series-compute.js';

/* Asset series computed in a compute thread are those computed inline, errors included. */
const source = new SyntheticSource({ now: () => Date.UTC(2026, 5, 15, 12, 34) });
const asset: AssetRecord = {
  id: '0b7c9a52-4f5e-4d0a-9a53-3f1d7f7a2c11',
  accountId: 'a',
  tags: {},
  polygon: [
    [
      [-93.52, 41.99],
      [-93.47, 42.0],
      [-93.48, 42.04],
      [-93.52, 41.99],
    ],
  ],
  centroid: { latitude: 42.01, longitude: -93.49 },
  areaM2: 1,
};
const HOUR_MS = 3_600_000;
const first = Date.UTC(2026, 5, 10);
const query: HourlyQuery = {
  firstMs: first,
  lastMs: first + 47 * HOUR_MS,
  startTime: '2026-06-10',
  endTime: '2026-06-11',
  defaulted: false,
  unit: 'millimeters',
};
const computer = seriesComputer(source, 1);
afterAll(() => computer.close());

describe('asset series in compute threads', () => {
  it('RH and ET equal the inline series', async () => {
    const [et, rh] = await Promise.all([
      computer.asset(asset, 'evapotranspiration', query),
      computer.asset(asset, 'relative-humidity', query),
    ]);
    expect(et).toBe(await hourlySeriesJson(source, 'evapotranspiration', { asset }, query));
    expect(rh).toBe(await hourlySeriesJson(source, 'relative-humidity', { asset }, query));
    expect((JSON.parse(et) as HourlySeries).series).toHaveLength(48);
    // the thread's first start transpiles its modules from the sources: seconds on a loaded machine
  }, 120_000);

  it('an error in the thread maps as the error inline: hours outside the coverage are 400 out_of_coverage', async () => {
    // Before the world's first hour: the thread's world ends 16 days after the wall clock's hour,
    // so an hour past this test's fixed clock would be inside it some day.
    const beyond = { ...query, firstMs: SYNTHETIC_START_MS - HOUR_MS, lastMs: SYNTHETIC_START_MS - HOUR_MS };
    const inline = await hourlySeriesJson(source, 'relative-humidity', { asset }, beyond).catch((err: unknown) => err);
    const threaded = await computer.asset(asset, 'relative-humidity', beyond).catch((err: unknown) => err);
    // (the thread's world runs on the wall clock, so the coverage end in the message differs)
    const { message: _m1, ...fromThread } = problemOf(threaded, [gridRequestErrors]);
    const { message: _m2, ...fromInline } = problemOf(inline, [gridRequestErrors]);
    expect(fromThread).toEqual(fromInline);
    expect(fromInline).toMatchObject({ status: 400, id: 'out_of_coverage' });
  }, 60_000);
});
