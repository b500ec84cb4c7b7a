/**
 * The weather a fleet serves reads the analysis as it grows (docs/decisions/0250-synced-runs-staged-then-published.md,
 * 0251): the analysis store is appended in place, so a serving process that opened it before an
 * append must read the hours appended since, once retention has removed the runs that also held
 * them. Expected values are the analytic fields of runs.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWeatherSource, readSourceRegistry, type ReloadingSource, ZarrSource } from '@fieldcast/weather';
import { syncRun } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import { analytic, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN_A = Date.UTC(2026, 11, 2, 18);
const RUN_B = RUN_A + 6 * HOUR;
const RUN_C = RUN_B + 6 * HOUR;
const LAT = 45.6;
const LON = 10.3;

let archive: string;
let data: string;
let server: ArchiveServer;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'sync-archive-'));
  data = mkdtempSync(join(tmpdir(), 'sync-data-'));
  for (const run of [RUN_A, RUN_B, RUN_C]) for (let s = 0; s <= 8; s++) writeGfsStep(archive, run, s);
  server = await serveArchive(archive);
});
afterAll(async () => {
  await server.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

/** One sync of the test archive's GFS into `syncDir`, at `nowMs` (default the run's last step). */
const syncInto = (syncDir: string, runMs: number, steps: string, o: { keepRuns?: number; nowMs?: number } = {}) =>
  syncRun({
    source: 'gfs-0p25',
    baseUrl: server.baseUrl,
    syncDir,
    http: { retries: 1, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
    runMs,
    steps,
    ...(o.keepRuns === undefined ? {} : { keepRuns: o.keepRuns }),
    now: () => o.nowMs ?? runMs + 8 * HOUR,
  });
const sync = (runMs: number, keepRuns: number) => syncInto(join(data, 'sync'), runMs, '0-8', { keepRuns });

it('serves the hours appended to the analysis after it was opened', async () => {
  await sync(RUN_A, 8);
  const weather = (await loadWeatherSource({ syncDir: join(data, 'sync'), reloadMs: 3_600_000 })) as ReloadingSource;
  try {
    await sync(RUN_B, 8);
    // Only the newest run stays: the hours of B's first six are in the analysis alone.
    await sync(RUN_C, 1);
    expect(await weather.reload()).toBe(true);
    const series = await weather.pointSeries('air_temperature', LON, LAT, { startMs: RUN_B + HOUR, endMs: RUN_B + 3 * HOUR });
    expect(series.values).toHaveLength(3);
    series.values.forEach((v, k) => expect(v).toBeCloseTo(analytic.temperatureK(LAT, LON, k + 1) - 273.15, 2));
  } finally {
    await weather.close();
  }
});

it("a run synced from a later step adds nothing to the analysis, so the next run's first hours go in", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sync-later-steps-'));
  const syncSteps = (runMs: number, steps: string) => syncInto(join(dir, 'sync'), runMs, steps);
  try {
    // the first run synced from step 6: no analysis yet, and none made of its forecast hours
    await syncSteps(RUN_A, '6-8');
    expect((await readSourceRegistry(join(dir, 'sync', 'gfs-0p25'), 'gfs-0p25')).analysis).toBeNull();
    await syncSteps(RUN_B, '0-8');
    await syncSteps(RUN_C, '6-8');
    const registry = await readSourceRegistry(join(dir, 'sync', 'gfs-0p25'), 'gfs-0p25');
    const analysis = await ZarrSource.open(join(dir, 'sync', 'gfs-0p25', registry.analysis!));
    try {
      // B's first six hours, each its own lead; nothing after them from C's forecast
      const series = await analysis.pointSeries('air_temperature', LON, LAT, { startMs: RUN_B, endMs: RUN_B + 5 * HOUR });
      series.values.forEach((v, k) => expect(v).toBeCloseTo(analytic.temperatureK(LAT, LON, k) - 273.15, 2));
      // the mean rates' hours end an hour after the instants' (each stands for the hour before it)
      expect(analysis.coverage().endMs).toBe(RUN_B + 6 * HOUR);
    } finally {
      await analysis.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a run synced again with more steps is served whole, from a store of its own; the one it replaces is retired', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sync-again-'));
  const syncSteps = (steps: string, nowMs: number) => syncInto(join(dir, 'sync'), RUN_A, steps, { nowMs });
  const sourceDir = join(dir, 'sync', 'gfs-0p25');
  try {
    await syncSteps('0-3', RUN_A + 4 * HOUR);
    const first = (await readSourceRegistry(sourceDir, 'gfs-0p25')).runs[0]!;
    const weather = (await loadWeatherSource({ syncDir: join(dir, 'sync'), reloadMs: 3_600_000 })) as ReloadingSource;
    try {
      const window = { startMs: RUN_A, endMs: RUN_A + 8 * HOUR };
      // read once, so the first store is open and its chunks cached
      expect((await weather.pointSeries('air_temperature', LON, LAT, { startMs: RUN_A, endMs: RUN_A + 3 * HOUR })).values).toHaveLength(4);
      await syncSteps('0-8', RUN_A + 9 * HOUR);
      expect(await weather.reload()).toBe(true);
      const series = await weather.pointSeries('air_temperature', LON, LAT, window);
      series.values.forEach((v, k) => expect([k, v]).toEqual([k, expect.closeTo(analytic.temperatureK(LAT, LON, k) - 273.15, 2)]));
    } finally {
      await weather.close();
    }
    const registry = await readSourceRegistry(sourceDir, 'gfs-0p25');
    expect(registry.runs).toHaveLength(1);
    expect(registry.runs[0]).toMatchObject({ steps: [0, 1, 2, 3, 4, 5, 6, 7, 8], createdAt: first.createdAt });
    expect(registry.runs[0]!.path).not.toBe(first.path);
    expect(registry.retired.map((r) => r.path)).toContain(first.path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
