/**
 * `fieldcast sync`'s work from a local GFS archive: a run staged step by step, published as a
 * store in the point-series layout whose hourly series equal the analytic fields (bilinear, units
 * converted), its first hours appended to the analysis, resumed after a failure from the steps it
 * has, and the registry naming what is served.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZarrSource, readSourceRegistry, syncedStorePaths } from '@fieldcast/weather';
import { syncRun } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import { analytic, gfsPath, writeEcmwfStep, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN1 = Date.UTC(2026, 11, 2, 18);
const RUN2 = Date.UTC(2026, 11, 3, 0);
const RUN3 = RUN2 + 6 * HOUR;
const RUN4 = RUN2 + 12 * HOUR;
const RUN6 = RUN2 + 24 * HOUR;
const RUN7 = RUN6 + 31 * 24 * HOUR;
const LAT = 45.6;
const LON = 10.3;
const fast = { retries: 1, backoffMs: 5, timeoutMs: 2000 };

let archive: string;
let data: string;
let server: ArchiveServer;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'sync-archive-'));
  data = mkdtempSync(join(tmpdir(), 'sync-data-'));
  for (let s = 0; s <= 30; s++) writeGfsStep(archive, RUN1, s);
  for (let s = 0; s <= 6; s++) writeGfsStep(archive, RUN2, s);
  for (const run of [RUN3, RUN4, RUN6, RUN7]) for (let s = 0; s <= 2; s++) writeGfsStep(archive, run, s);
  for (const s of [0, 3, 6, 9, 12]) writeEcmwfStep(archive, RUN2, s);
  server = await serveArchive(archive);
});
afterAll(async () => {
  await server.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const options = (extra: Partial<Parameters<typeof syncRun>[0]> = {}) => ({
  source: 'gfs-0p25' as const,
  baseUrl: server.baseUrl,
  syncDir: join(data, 'sync'),
  http: fast,
  retryDelayMs: 5,
  stepRetries: 0,
  ...extra,
});

describe('syncing a run', () => {
  it('stages every step, resumes after a failure from the steps it has, and publishes the store whole', async () => {
    server.inject(gfsPath(RUN1, 20) + '.idx', { status: 503 }, 2);
    const lines: string[] = [];
    const failed = await syncRun(options({ runMs: RUN1, steps: '0-30', progress: (l) => lines.push(l) })).catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: 'UpstreamError', status: 503 });
    expect(lines.filter((l) => /step \d+ h \(\d+\/31\)/.test(l))).toHaveLength(20);
    expect(existsSync(join(data, 'sync', 'gfs-0p25', 'runs'))).toBe(false);
    expect(await syncedStorePaths(join(data, 'sync'), RUN2)).toEqual([]);

    server.log.length = 0;
    const result = await syncRun(options({ runMs: RUN1, steps: '0-30', progress: (l) => lines.push(l) }));
    expect(result.state).toBe('published');
    // Resumed at step 20, with step 19 read again for the rates over the hour before it.
    const inventories = server.log.filter((r) => r.path.endsWith('.idx')).map((r) => r.path);
    expect(inventories[0]).toBe(`/${gfsPath(RUN1, 19)}.idx`);
    expect(inventories).toHaveLength(12);
    expect(lines.some((l) => /resuming at step 20 h/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/31 steps, [\d.]+ MB fetched in [\d.]+ s, store [\d.]+ MB/);
    expect(readdirSync(join(data, 'sync', 'gfs-0p25', 'staging'))).toEqual([]);
  });

  it("serves the run's hourly series as the analytic fields give them", async () => {
    const [newest] = await syncedStorePaths(join(data, 'sync'), RUN2);
    const store = await ZarrSource.open(newest!);
    try {
      const range = { startMs: RUN1, endMs: RUN1 + 30 * HOUR };
      const t = await store.pointSeries('air_temperature', LON, LAT, range);
      expect(t.values).toHaveLength(31);
      t.values.forEach((v, h) => expect(v).toBeCloseTo(analytic.temperatureK(LAT, LON, h) - 273.15, 2));
      expect(t.productOf(0)).toBe('gfs-0p25');
      const rates = { startMs: RUN1 + HOUR, endMs: RUN1 + 30 * HOUR };
      const p = await store.pointSeries('precipitation_rate', LON, LAT, rates);
      const { c, d } = analytic.precipitation(LAT);
      p.values.forEach((v, k) => expect(v).toBeCloseTo(c + d * (k + 0.5), 3));
      const sw = await store.pointSeries('surface_downwelling_shortwave_flux_in_air', LON, LAT, rates);
      const { a, b } = analytic.shortwave(LAT, LON);
      sw.values.forEach((v, k) => expect(v).toBeCloseTo(a + b * (k + 0.5), 1));
      // The local solar day of 3 December at 10.5 E runs from 23:18 on the 2nd to 23:18 on the 3rd.
      const day = Date.UTC(2026, 11, 3);
      const max = await store.pointSeries('air_temperature_daily_max', 10.5, 46, { startMs: day, endMs: day });
      const min = await store.pointSeries('air_temperature_daily_min', 10.5, 46, { startMs: day, endMs: day });
      const ws = (day - (10.5 / 15) * HOUR - RUN1) / HOUR;
      expect(max.values[0]).toBeCloseTo(analytic.temperatureK(46, 10.5, ws + 24) - 273.15, 2);
      expect(min.values[0]).toBeCloseTo(analytic.temperatureK(46, 10.5, ws) - 273.15, 2);
    } finally {
      await store.close();
    }
  });

  it("appends each run's first hours to the analysis and serves the newest run first", async () => {
    const result = await syncRun(options({ steps: '0-6', now: () => RUN2 + 5 * HOUR }));
    expect(result).toMatchObject({ state: 'published', runMs: RUN2 });
    const paths = await syncedStorePaths(join(data, 'sync'), RUN2 + 5 * HOUR);
    expect(paths.map((p) => p.split('/').slice(-1)[0])).toEqual(['2026120300.zarr', 'analysis.zarr', '2026120218.zarr']);
    const analysis = await ZarrSource.open(paths[1]!);
    try {
      const t = await analysis.pointSeries('air_temperature', LON, LAT, { startMs: RUN1, endMs: RUN2 + 5 * HOUR });
      expect(t.values).toHaveLength(12);
      t.values.forEach((v, h) => expect(v).toBeCloseTo(analytic.temperatureK(LAT, LON, h % 6) - 273.15, 2));
      expect(analysis.arrayFor('air_temperature')!.time).toMatchObject({ startMs: RUN1, length: 12 });
      const p = await analysis.pointSeries('precipitation_rate', LON, LAT, { startMs: RUN1 + HOUR, endMs: RUN2 + 6 * HOUR });
      const { c, d } = analytic.precipitation(LAT);
      p.values.forEach((v, k) => expect(v).toBeCloseTo(c + d * ((k % 6) + 0.5), 3));
    } finally {
      await analysis.close();
    }
    expect(await syncRun(options({ steps: '0-6', now: () => RUN2 + 5 * HOUR }))).toMatchObject({ state: 'up-to-date' });
  });

  it('keeps FIELDCAST_SYNC_KEEP_RUNS runs and retires the rest', async () => {
    await syncRun(options({ runMs: RUN3, steps: '0-2', keepRuns: 2, now: () => RUN3 + 5 * HOUR }));
    const registry = await readSourceRegistry(join(data, 'sync', 'gfs-0p25'), 'gfs-0p25');
    expect(registry.runs.map((r) => Date.parse(r.run))).toEqual([RUN3, RUN2]);
    expect(registry.retired.map((r) => r.path)).toEqual(['runs/2026120218.zarr']);
    expect(existsSync(join(data, 'sync', 'gfs-0p25', 'runs', '2026120218.zarr'))).toBe(true);
    // Removed once readers have had time to let it go.
    await syncRun(options({ runMs: RUN4, steps: '0-2', keepRuns: 2, now: () => RUN4 + 5 * HOUR }));
    expect(existsSync(join(data, 'sync', 'gfs-0p25', 'runs', '2026120218.zarr'))).toBe(false);
    expect(existsSync(join(data, 'sync', 'gfs-0p25', 'runs', '2026120300.zarr'))).toBe(true);
    expect((await readSourceRegistry(join(data, 'sync', 'gfs-0p25'), 'gfs-0p25')).retired.map((r) => r.path)).toEqual([
      'runs/2026120300.zarr',
    ]);
  });

  it('leaves the hours no run gave missing in the analysis', async () => {
    await syncRun(options({ runMs: RUN6, steps: '0-2', now: () => RUN6 + 5 * HOUR }));
    const analysis = await ZarrSource.open(join(data, 'sync', 'gfs-0p25', 'analysis.zarr'));
    try {
      // RUN4 gave its 3 steps' hours; RUN4 + 18 h was never synced; RUN6 gave its 3.
      const t = await analysis.pointSeries('air_temperature', LON, LAT, { startMs: RUN4, endMs: RUN6 + 2 * HOUR });
      const expected = [0, 1, 2, ...Array(9).fill(NaN), 0, 1, 2].map((h: number) => analytic.temperatureK(LAT, LON, h) - 273.15);
      expect(t.values).toHaveLength(15);
      t.values.forEach((v, k) => (Number.isNaN(expected[k]) ? expect(v).toBeNaN() : expect(v).toBeCloseTo(expected[k]!, 2)));
    } finally {
      await analysis.close();
    }
  });

  it('drops whole 30-day chunks older than FIELDCAST_SYNC_KEEP_DAYS from the analysis, as a new store', async () => {
    await syncRun(options({ runMs: RUN7, steps: '0-2', keepDays: 1, now: () => RUN7 + 5 * HOUR }));
    const sourceDir = join(data, 'sync', 'gfs-0p25');
    const registry = await readSourceRegistry(sourceDir, 'gfs-0p25');
    expect(registry.analysis).toBe('analysis-2027010400.zarr');
    expect(registry.retired.map((r) => r.path)).toContain('analysis.zarr');
    const analysis = await ZarrSource.open(join(sourceDir, registry.analysis!));
    try {
      expect(analysis.arrayFor('air_temperature')!.time).toMatchObject({
        startMs: RUN1 + 720 * HOUR,
        length: (RUN7 - RUN1) / HOUR - 720 + 3,
      });
      const t = await analysis.pointSeries('air_temperature', LON, LAT, { startMs: RUN7, endMs: RUN7 + 2 * HOUR });
      t.values.forEach((v, h) => expect(v).toBeCloseTo(analytic.temperatureK(LAT, LON, h) - 273.15, 2));
    } finally {
      await analysis.close();
    }
    expect((await syncedStorePaths(join(data, 'sync'), RUN7 + 5 * HOUR)).filter((p) => p.includes('gfs-0p25'))).toContain(
      join(sourceDir, registry.analysis!),
    );
  });

  it('syncs an ECMWF run of 3-hourly steps onto hourly axes', async () => {
    const result = await syncRun(options({ source: 'ecmwf-ifs-0p25', runMs: RUN2, steps: '0-12' }));
    expect(result).toMatchObject({ state: 'published', steps: 5 });
    const paths = await syncedStorePaths(join(data, 'sync'), RUN2 + 12 * HOUR);
    const store = await ZarrSource.open(paths.find((p) => p.includes('ecmwf-ifs-0p25/runs/'))!);
    try {
      const lat = 45.4;
      const lon = -4.1;
      const t = await store.pointSeries('air_temperature', lon, lat, { startMs: RUN2, endMs: RUN2 + 12 * HOUR });
      // Linear in time between steps, so the analytic field at every hour.
      t.values.forEach((v, h) => expect(v).toBeCloseTo(analytic.temperatureK(lat, lon, h) - 273.15, 2));
      // tp accumulates from the start: each hour of (0, 3] gets the mean over those 3 hours.
      const p = await store.pointSeries('precipitation_rate', lon, lat, { startMs: RUN2 + HOUR, endMs: RUN2 + 12 * HOUR });
      const { c, d } = analytic.precipitation(lat);
      p.values.forEach((v, k) => expect(v).toBeCloseTo(c + d * (3 * Math.floor(k / 3) + 1.5), 3));
      expect(t.productOf(0)).toBe('ecmwf-ifs-0p25');
    } finally {
      await store.close();
    }
  });
});
