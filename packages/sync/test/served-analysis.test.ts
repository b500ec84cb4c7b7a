/**
 * The weather a fleet serves reads the analysis as it grows (docs/decisions/0250-synced-runs-staged-then-published.md,
 * 0251): the analysis store is appended in place, so a serving process that opened it before an
 * append must read the hours appended since, once retention has removed the runs that also held
 * them. Expected values are the analytic fields of runs.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWeatherSource, type ReloadingSource } from '@fieldcast/weather';
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

const sync = (runMs: number, keepRuns: number) =>
  syncRun({
    source: 'gfs-0p25',
    baseUrl: server.baseUrl,
    syncDir: join(data, 'sync'),
    http: { retries: 1, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
    runMs,
    steps: '0-8',
    keepRuns,
    now: () => runMs + 8 * HOUR,
  });

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
