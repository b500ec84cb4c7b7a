import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { type ArchiveServer, serveArchive } from '../../sync/test/archive-server.js';
import { syncJobId } from '@fieldcast/model/synced-registry';
import { forecastId, productId } from '@fieldcast/weather';
import { analytic, writeEcmwfStep, writeGfsStep } from '../../sync/test/runs.js';
import { startFleet, type StartedFleet } from '../src/start.js';
import { syncCommand } from '../src/sync.js';

/*
 * A synced run reaches a user without a restart (docs/decisions/0251-synced-stores-registry.md):
 * `fieldcast start` runs; `fieldcast sync gfs-0p25 --once` writes a run from a local archive into
 * the same data dir; within the reload period the areas answer from it: degree days from the run's
 * daily extremes, hourly relative humidity from its temperature and dewpoint, and hourly ET from
 * its inputs, each value named by the synced product. Expected values are the analytic fields of test/runs.ts (linear in latitude,
 * longitude and time, so bilinear and linear-in-time interpolation are exact).
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;
const DAY0 = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
const RUN = DAY0 + 18 * HOUR;
const DATE = new Date(DAY0 + DAY).toISOString().slice(0, 10);
const ECMWF_RUN = DAY0 + DAY + 12 * HOUR;
const PORT_BASE = reservePortBase();

let archive: string;
let dataDir: string;
let server: ArchiveServer;
/** An archive with nothing published: the poller of a source pointed at it fails every pass. */
let empty: ArchiveServer;
let emptyDir: string;
let started: StartedFleet;
let auth: string;
const url = (area: string) => started.fleet.services.find((s) => s.area === area)!.url;
const get = async (area: string, path: string) => {
  // A kept-alive connection the server closed as idle while this process's loop was busy with
  // the fleet's work resets when reused (ECONNRESET): that request is sent once more.
  const res = await fetch(`${url(area)}${path}`, { headers: { Authorization: auth } }).catch(() =>
    fetch(`${url(area)}${path}`, { headers: { Authorization: auth } }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'fieldcast-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-synced-'));
  for (let s = 0; s <= 30; s++) writeGfsStep(archive, RUN, s);
  // An ECMWF run whose first steps only are published, for the fleet's own poller.
  for (const s of [0, 3]) writeEcmwfStep(archive, ECMWF_RUN, s);
  server = await serveArchive(archive);
  emptyDir = mkdtempSync(join(tmpdir(), 'fieldcast-empty-archive-'));
  empty = await serveArchive(emptyDir);
  const env = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    PORT_BASE: String(PORT_BASE),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FIELDCAST_SYNC_RELOAD_MS: '200',
    FIELDCAST_SYNC_SOURCES: 'ecmwf-ifs-0p25,gfs-0p25',
    FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL: server.baseUrl,
    FIELDCAST_SOURCE_GFS_0P25_URL: empty.baseUrl,
  });
  started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
  auth = `Basic ${Buffer.from(`${started.demo!.applicationId}:${started.demo!.applicationKey}`).toString('base64')}`;
}, 120_000);
afterAll(async () => {
  await started?.fleet.stop();
  await server?.close();
  await empty?.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** Bolton (1980) eq. 10, as the science package computes relative humidity. */
const es = (t: number) => 6.112 * Math.exp((17.67 * t) / (t + 243.5));

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, tries = 100): Promise<T> => {
  for (let k = 0; ; k++) {
    const value = await read();
    if (done(value) || k > tries) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('fieldcast start with FIELDCAST_SYNC_SOURCES', () => {
  it("polls the sources named, staging a run's steps as they are published, and no other source", async () => {
    const staging = join(dataDir, 'sync', 'ecmwf-ifs-0p25', 'staging', new Date(ECMWF_RUN).toISOString().slice(0, 13).replace(/[-T]/g, ''));
    await until(
      // Whole steps only: one being written has a temporary name.
      async () => (existsSync(staging) ? readdirSync(staging).filter((f) => f.endsWith('.f32')) : []),
      (files) => files.length === 2,
    );
    expect(
      readdirSync(staging)
        .filter((f) => f.endsWith('.f32'))
        .sort(),
    ).toEqual(['step-000.f32', 'step-003.f32']);
    expect(server.log.some((r) => r.path.includes('/gfs.'))).toBe(false);
  }, 30_000);

  it("counts each poller's passes by outcome in every area's /metrics, failures included", async () => {
    const passes = async () =>
      (await (await fetch(`${url('model')}/metrics`)).text()).split('\n').filter((l) => l.startsWith('fieldcast_sync_passes_total{'));
    const line = (lines: string[], source: string, outcome: string) =>
      lines.find((l) => l.includes(`source="${source}"`) && l.includes(`outcome="${outcome}"`));
    const lines = await until(
      passes,
      (l) => line(l, 'gfs-0p25', 'failed') !== undefined && line(l, 'ecmwf-ifs-0p25', 'pending') !== undefined,
    );
    // gfs-0p25's archive publishes nothing: its pass failed; ecmwf-ifs-0p25's waits for the rest of its run.
    expect(line(lines, 'gfs-0p25', 'failed')).toMatch(/ 1$/);
    expect(line(lines, 'ecmwf-ifs-0p25', 'pending')).toMatch(/ 1$/);
    expect(line(lines, 'ecmwf-ifs-0p25', 'failed')).toBeUndefined();
    expect((await fetch(`${url('agriculture')}/metrics`)).status).toBe(200);
    expect(await (await fetch(`${url('agriculture')}/metrics`)).text()).toContain('fieldcast_sync_passes_total{');
  }, 30_000);
});

describe('a run synced while the fleet runs', () => {
  it('is served within the reload period, without a restart', async () => {
    const degreeDays = () => get('agriculture', `/growing-degree-days/46/10.5?start=${DATE}&end=${DATE}`);
    const before = await degreeDays();
    expect(before.status).toBe(200);
    const start = new Date(RUN + 6 * HOUR).toISOString().slice(0, 19) + 'Z';
    const end = new Date(RUN + 9 * HOUR).toISOString().slice(0, 19) + 'Z';
    const relativeHumidity = () => get('insight', `/hourly-relative-humidity/45.6/10.3?start=${start}&end=${end}`);
    // asked before the sync too: what a process keeps of earlier answers must not outlive the weather they came from
    const rhBefore = await relativeHumidity();
    expect(rhBefore.status).toBe(200);

    const lines: string[] = [];
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl });
    const run = new Date(RUN).toISOString().slice(0, 13) + 'Z';
    await syncCommand(['gfs-0p25', '--once', '--run', run, '--steps', '0-30'], env, (l) => lines.push(l));
    expect(lines.at(-1)).toMatch(/31 steps/);

    // The local solar day at 10.5 E starts 42 minutes before 00:00Z; the run warms 0.25 K an hour.
    const ws = (DAY0 + DAY - (10.5 / 15) * HOUR - RUN) / HOUR;
    const tmax = analytic.temperatureK(46, 10.5, ws + 24) - 273.15;
    const tmin = analytic.temperatureK(46, 10.5, ws) - 273.15;
    const expected = Math.round(Math.max(0, (tmax + tmin) / 2 - 10) * 10) / 10;
    const after = await until(degreeDays, (r) => r.body.degreeDays === expected);
    expect(after.body.degreeDays).toBe(expected);
    expect(before.body.degreeDays).not.toBe(expected);

    const rh = await relativeHumidity();
    expect(rh.status).toBe(200);
    const series = rh.body.series as Array<{ value: number; products: string[] }>;
    expect(series).toHaveLength(4);
    series.forEach((entry, h) => {
      // The hour's mean temperature and dewpoint: the analytic fields half an hour in.
      const t = analytic.temperatureK(45.6, 10.3, 6 + h + 0.5) - 273.15;
      const td = analytic.dewpointK(45.6, 10.3, 6 + h + 0.5) - 273.15;
      expect(entry.value).toBeCloseTo((100 * es(td)) / es(t), 1);
      expect(entry.products).toEqual(['gfs-0p25']);
    });

    // ET reads the 24 hours before its start too: from hour 25 on, every input is the run's.
    const etStart = new Date(RUN + 25 * HOUR).toISOString().slice(0, 19) + 'Z';
    const etEnd = new Date(RUN + 28 * HOUR).toISOString().slice(0, 19) + 'Z';
    const et = await get('insight', `/hourly-evapotranspiration-short-crop/45.6/10.3?start=${etStart}&end=${etEnd}`);
    expect(et.status).toBe(200);
    const etSeries = et.body.series as Array<{ value: number; products: string[] }>;
    expect(etSeries).toHaveLength(4);
    for (const entry of etSeries) expect(entry.products).toEqual(['gfs-0p25']);

    // The fleet registers what the sync process stored (docs/decisions/0310-synced-registry-in-the-database.md):
    // an event from the sync job for each frame a step made (the temperature product's: one a step),
    // and the run's life-cycle events, in the feeds.
    const temperature = productId('gfs-0p25.air-temperature');
    const frames = await until(
      () => get('events', `/resources/${temperature}/events?limit=100`),
      (r) => Array.isArray(r.body) && r.body.length === 31,
      // the model area's registration runs every 10 s
      300,
    );
    expect(frames.body).toHaveLength(31);
    for (const e of frames.body as unknown as Array<{ origin: { id: string } }>) expect(e.origin.id).toBe(syncJobId('gfs-0p25'));
    const life = await until(
      () => get('events', `/resources/${forecastId({ name: 'gfs-0p25' }, RUN)}/events`),
      (r) => Array.isArray(r.body) && r.body.length === 3,
      300,
    );
    expect((life.body as unknown as Array<{ message: string }>).map((e) => e.message)).toEqual([
      'Forecast {} of model {} is complete',
      'Forecast {} of model {} is producing its valid times',
      'Forecast {} of model {} is initializing',
    ]);
  }, 60_000);
});

describe('a series from the analysis into the newest run (docs/decisions/0295-time-stitching-on-one-grid.md)', () => {
  it('reads the hours before the run from the analysis and the rest from the run, every value synced', async () => {
    // The next run, six hours later, keeping one run: the analysis then holds RUN's first six hours
    // and NEXT's first, RUN's store is gone, and NEXT starts six hours after RUN.
    const NEXT = RUN + 6 * HOUR;
    for (let s = 0; s <= 30; s++) writeGfsStep(archive, NEXT, s);
    const env = parseEnv(FleetEnv, {
      FIELDCAST_DATA_DIR: dataDir,
      FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
      FIELDCAST_SYNC_KEEP_RUNS: '1',
    });
    await syncCommand(['gfs-0p25', '--once', '--run', new Date(NEXT).toISOString().slice(0, 13) + 'Z', '--steps', '0-30'], env, () => {});

    // RUN + 2 h to NEXT + 23 h (at most the previous hour, the last an hourly series reads): NEXT
    // starts after its start, the analysis ends before its end.
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
    const path = `/hourly-relative-humidity/45.6/10.3?start=${iso(RUN + 2 * HOUR)}&end=${iso(NEXT + 23 * HOUR)}`;
    const rhAt = (step: number) =>
      (100 * es(analytic.dewpointK(45.6, 10.3, step) - 273.15)) / es(analytic.temperatureK(45.6, 10.3, step) - 273.15);
    const lastHour = (r: { body: Record<string, unknown> }) => (r.body.series as Array<{ value: number }> | undefined)?.[27]?.value ?? NaN;
    // Served once the fleet has reloaded: until then RUN's store, still there, answers it all.
    const rh = await until(
      () => get('insight', path),
      (r) => Math.abs(lastHour(r) - rhAt(23.5)) < 0.05,
    );
    expect(rh.status).toBe(200);
    const series = rh.body.series as Array<{ value: number; products: string[] }>;
    expect(series).toHaveLength(28);
    for (const entry of series) expect(entry.products).toEqual(['gfs-0p25']);
    // Hours away from the seam at NEXT: RUN's analysis hours, then NEXT's forecast (the fields run on each run's own clock).
    expect(series[0]!.value).toBeCloseTo(rhAt(2.5), 1);
    expect(series[1]!.value).toBeCloseTo(rhAt(3.5), 1);
    expect(series[27]!.value).toBeCloseTo(rhAt(23.5), 1);
  }, 60_000);
});
