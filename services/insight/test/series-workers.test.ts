import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { problemOf } from '@fieldcast/kit';
import { gridRequestErrors } from '@fieldcast/runtime';
import type { HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import { loadWeatherSource, type ReloadingSource, SYNTHETIC_START_MS, SyntheticSource } from '@fieldcast/weather';
import { writeSyncedRun } from '../../../packages/weather/test/synced-store.js';
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

  it('a run synced after the threads were made is read in them, as inline', async () => {
    // The stores served are those of the moment (docs/decisions/0251-synced-stores-registry.md):
    // a thread sent the stores served when the computer was made read the synthetic world for good.
    const syncDir = mkdtempSync(join(tmpdir(), 'insight-synced-threads-'));
    const served = (await loadWeatherSource({ syncDir, reloadMs: 3_600_000 })) as ReloadingSource;
    const synced = seriesComputer(served, 1);
    try {
      const runMs = Math.floor(Date.now() / (6 * HOUR_MS)) * 6 * HOUR_MS - 24 * HOUR_MS;
      await writeSyncedRun(syncDir, 'gfs-0p25', {
        runMs,
        lats: [41.75, 42, 42.25],
        lons: [-93.75, -93.5, -93.25],
        fields: [
          { name: 'air_temperature', units: 'degC', value: () => 20 },
          { name: 'dew_point_temperature', units: 'degC', value: () => 10 },
        ],
        steps: 6,
      });
      expect(await served.reload()).toBe(true);
      const hours: HourlyQuery = { ...query, firstMs: runMs, lastMs: runMs + 3 * HOUR_MS };
      const threaded = await synced.asset(asset, 'relative-humidity', hours);
      expect(threaded).toBe(await hourlySeriesJson(served, 'relative-humidity', { asset }, hours));
      expect((JSON.parse(threaded) as HourlySeries).series.map((e) => e.products)).toEqual(Array(4).fill(['gfs-0p25']));
      const [point] = await synced.points([{ longitude: -93.5, latitude: 42 }], 'relative-humidity', hours);
      expect(point).toBe(await hourlySeriesJson(served, 'relative-humidity', { longitude: -93.5, latitude: 42 }, hours));
    } finally {
      await synced.close();
      await served.close?.();
      rmSync(syncDir, { recursive: true, force: true });
    }
  }, 120_000);
});
