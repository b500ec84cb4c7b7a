/**
 * Runs written by ecCodes (tests/integration/grib2_eccodes.py) as their upstreams publish them
 * over time, synced into one running fleet from a local stand-in archive (see
 * synced-eccodes.int.test.ts for the sources' layouts):
 * - a GFS run that upstream is still publishing when the poller first looks at it, one of its
 *   steps half written: the run is staged step by step and served only once all its steps are in,
 *   the run before it served meanwhile (docs/decisions/0250-synced-runs-staged-then-published.md);
 * - an ECMWF run's 2 m maxima and minima over the hours since the step before (mx2t3/mn2t3 to 144 h,
 *   mx2t6/mn2t6 after), served as the daily extremes over the local solar day: the extreme of the
 *   hourly temperature and of the windows that lie inside the day (0230, 0250), each window as
 *   grib_get reads its stepRange.
 *
 * ecCodes (libeccodes-tools, python3-eccodes) and xarray with netCDF4 are needed, as for
 * synced-eccodes.int.test.ts.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { startFleet, type StartedFleet } from '../../packages/fleet/src/start.js';
import { syncCommand, syncOptions } from '../../packages/fleet/src/sync.js';
import { type SyncResult, syncRun } from '../../packages/sync/src/index.js';
import { type ArchiveServer, serveArchive } from '../../packages/sync/test/archive-server.js';
import {
  DAY,
  HOUR,
  type Reference,
  type SourceRun,
  TODAY,
  closeStored,
  ecmwfRun,
  expectLatestForecast,
  fleetApi,
  gfsRun,
  iso,
  range,
  requireTools,
  run,
  valueAt,
  writeRun,
} from './synced-eccodes.js';

/** Yesterday's 00Z and 06Z runs: among the 8 newest, which a poll waits for (docs/decisions/0364). */
const BEFORE = gfsRun(TODAY - DAY, range(0, 13, 1));
const MID_RUN = gfsRun(TODAY - DAY + 6 * HOUR, range(0, 13, 1));
/**
 * ECMWF's 12Z run from 96 h (the sync reads 93 h too, for the rates) to 168 h: mx2t3 windows to
 * 144 h, mx2t6 after, over two whole local days near the antimeridian.
 */
const EXTREMES = ecmwfRun(TODAY - 2 * DAY + 12 * HOUR, [93, ...range(96, 144, 3), ...range(150, 168, 6)]);

let python: string;
let archive: string;
/** Where upstream's files wait until the test publishes them. */
let upstream: string;
let dataDir: string;
let server: ArchiveServer;
let started: StartedFleet;
const reference = new Map<SourceRun, Reference>();
const { get, url, auth } = fleetApi(() => started);
let syncEnv: FleetEnv;

beforeAll(async () => {
  python = requireTools();
  archive = mkdtempSync(join(tmpdir(), 'synced-runs-archive-'));
  upstream = mkdtempSync(join(tmpdir(), 'synced-runs-upstream-'));
  dataDir = mkdtempSync(join(tmpdir(), 'synced-runs-data-'));
  for (const c of [BEFORE, MID_RUN]) reference.set(c, writeRun(python, c, upstream));
  reference.set(EXTREMES, writeRun(python, EXTREMES, archive));
  server = await serveArchive(archive);
  const env = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    PORT_BASE: String(reservePortBase()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FIELDCAST_SYNC_RELOAD_MS: '200',
  });
  started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
  syncEnv = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
    FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL: server.baseUrl,
  });
}, 120_000);
afterAll(async () => {
  await started?.fleet.stop();
  await server?.close();
  for (const dir of [archive, upstream, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The run the model area serves as the source's latest forecast (its first valid time), or null while it serves none. */
async function servedRun(c: SourceRun): Promise<string | null> {
  const [lat, lon] = c.gridPoints[1]!;
  const res = await fetch(`${url('model')}/models/${c.source}/latest-forecast/timeseries/${lat}/${lon}`, {
    headers: { Authorization: auth() },
  });
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  const body = (await res.json()) as { variables: Record<string, { series: Array<{ validTime: string }> }> };
  return body.variables.temperature!.series[0]!.validTime;
}

/** Waits out the areas' reload (FIELDCAST_SYNC_RELOAD_MS) until the source's latest forecast is `c`'s run, from its first step. */
async function untilServed(c: SourceRun): Promise<void> {
  const first = iso(c.runMs + c.steps[0]! * HOUR);
  for (let k = 0; k < 100 && (await servedRun(c)) !== first; k++) await new Promise((r) => setTimeout(r, 100));
  expect(await servedRun(c)).toBe(first);
}

describe('a GFS run synced while upstream publishes it', () => {
  /** Upstream publishes steps: each file whole, then its inventory (`half`: the inventory, and the file cut short as it is being written). */
  const publish = (c: SourceRun, steps: number[], half = false) => {
    const from = c.folder(upstream);
    for (const file of readdirSync(from).sort((a, b) => Number(a.endsWith('.idx')) - Number(b.endsWith('.idx')))) {
      const step = c.stepOf(file.replace(/\.idx$/, ''));
      if (!steps.includes(step!)) continue;
      const to = join(archive, relative(upstream, from), file);
      mkdirSync(join(to, '..'), { recursive: true });
      if (half && !file.endsWith('.idx')) {
        const bytes = readFileSync(join(from, file));
        writeFileSync(to, bytes.subarray(0, bytes.length >> 1));
      } else copyFileSync(join(from, file), to);
    }
  };
  /** A poller's pass (`fieldcast sync gfs-0p25` without --once, as `serve sync` runs it), of steps 0 to 13. */
  const pass = (): Promise<SyncResult> =>
    syncRun({
      ...syncOptions('gfs-0p25', syncEnv),
      steps: '0-13',
      partial: true,
      stepRetries: 0,
    });
  const frames = async () =>
    (await get<Array<{ validTime: string }>>('platform', '/products/gfs-0p25.air-temperature/frames?sort=asc&limit=1000')).map(
      (f) => f.validTime,
    );

  it('serves the run before while the new one is half published or half written, and the new one whole once its last step is in', async () => {
    publish(BEFORE, BEFORE.steps);
    expect(await pass()).toMatchObject({ state: 'published', runMs: BEFORE.runMs, steps: 14 });
    await untilServed(BEFORE);

    // The poller first looks while steps 0 to 4 are published and step 5's file is being written:
    // step 5 is not yet published, and the pass waits for it
    // (docs/decisions/0455-a-file-shorter-than-its-inventory-is-not-yet-published.md).
    publish(MID_RUN, range(0, 4, 1));
    publish(MID_RUN, [5], true);
    expect(await pass()).toEqual({ state: 'pending', runMs: MID_RUN.runMs, staged: 5, of: 14 });
    const servedFrames = await frames();
    for (const [lat, lon] of BEFORE.gridPoints) await expectLatestForecast(BEFORE, reference.get(BEFORE)!, get, lat, lon, false);

    // Step 5 whole, then steps to 9: the run is staged from where it stopped, and still not served.
    publish(MID_RUN, range(5, 9, 1));
    expect(await pass()).toEqual({ state: 'pending', runMs: MID_RUN.runMs, staged: 10, of: 14 });
    await new Promise((r) => setTimeout(r, 500));
    expect(await servedRun(BEFORE)).toBe(iso(BEFORE.runMs));
    expect(await frames()).toEqual(servedFrames);

    publish(MID_RUN, range(10, 13, 1));
    expect(await pass()).toMatchObject({ state: 'published', runMs: MID_RUN.runMs, steps: 14 });
    await untilServed(MID_RUN);
    // Rates across where the sync stopped and resumed (4 to 5, 9 to 10) are ecCodes' too.
    for (const [lat, lon] of MID_RUN.gridPoints) await expectLatestForecast(MID_RUN, reference.get(MID_RUN)!, get, lat, lon, false);
    await expectLatestForecast(MID_RUN, reference.get(MID_RUN)!, get, ...MID_RUN.between, true);
    expect(await pass()).toEqual({ state: 'up-to-date', runMs: MID_RUN.runMs });
  }, 60_000);
});

describe('ECMWF 2 m maxima and minima over the hours since the step before', () => {
  const c = EXTREMES;
  const synced = c.steps.filter((s) => s >= 96);

  /** The window of each max and min message as grib_get reads it: `mx2t3 117-120`. */
  async function windows(): Promise<Map<string, { shortName: string; start: number; end: number; statistic: number }>> {
    const files = synced.map((s) =>
      join(
        c.folder(archive),
        readdirSync(c.folder(archive)).find((f) => c.stepOf(f) === s)!,
      ),
    );
    const out = await run('grib_get', [
      '-w',
      'shortName=mx2t3/mn2t3/mx2t6/mn2t6',
      '-p',
      'shortName,stepRange,typeOfStatisticalProcessing',
      ...files,
    ]);
    return new Map(
      out
        .trim()
        .split('\n')
        .map((line) => {
          const [shortName, stepRange, statistic] = line.trim().split(/\s+/);
          const [start, end] = stepRange!.split('-').map(Number);
          return [`${shortName}@${end}`, { shortName: shortName!, start: start!, end: end!, statistic: Number(statistic) }];
        }),
    );
  }

  it('grib_get reads mx2t3/mn2t3 over the 3 hours before each step to 144 h and mx2t6/mn2t6 over the 6 before each after', async () => {
    const read = await windows();
    const expected = synced.flatMap((s) => {
      const p = s <= 144 ? 3 : 6;
      return [
        [`mx2t${p}@${s}`, { shortName: `mx2t${p}`, start: s - p, end: s, statistic: 2 }],
        [`mn2t${p}@${s}`, { shortName: `mn2t${p}`, start: s - p, end: s, statistic: 3 }],
      ] as const;
    });
    expect([...read.entries()].sort()).toEqual([...expected].sort());
  });

  it("serves each local solar day's extremes of the hourly 2 m temperature and of the windows inside the day, in a day's netCDF", async () => {
    const lines: string[] = [];
    await syncCommand([c.source, '--once', '--run', `${iso(c.runMs).slice(0, 13)}Z`, '--steps', '96-168'], syncEnv, (l) => lines.push(l));
    expect(lines.at(-1)).toMatch(new RegExp(`${synced.length} steps`));
    await untilServed({ ...c, steps: synced });
    const ref = reference.get(c)!;
    const read = await windows();
    const at = (step: number, key: string, lat: number, lon: number) => valueAt(ref.get(step)!.get(key)!, lat, lon);
    /**
     * The day's extreme at a grid point (sign 1 the maximum, -1 the minimum), °C: of the hourly
     * temperature, linear between steps, at the day's ends and the steps inside it, and of each
     * max or min whose window lies inside the day.
     */
    const extreme = (dayMs: number, lat: number, lon: number, sign: 1 | -1) => {
      const from = dayMs - (lon / 15) * HOUR;
      const to = from + DAY;
      const hourOf = (ms: number) => (ms - c.runMs) / HOUR;
      const curve = (h: number) => {
        const after = synced.find((s) => s >= h)!;
        const before = synced[synced.indexOf(after) - 1] ?? after;
        const f = after === before ? 0 : (h - before) / (after - before);
        return (1 - f) * at(before, '2t', lat, lon) + f * at(after, '2t', lat, lon);
      };
      const candidates = [
        curve(hourOf(from)),
        curve(hourOf(to)),
        ...synced.filter((s) => s > hourOf(from) && s < hourOf(to)).map((s) => curve(s)),
      ];
      for (const w of read.values())
        if ((sign === 1) === w.shortName.startsWith('mx') && w.start >= hourOf(from) && w.end <= hourOf(to))
          candidates.push(at(w.end, w.shortName, lat, lon));
      return (sign === 1 ? Math.max(...candidates) : Math.min(...candidates)) - 273.15;
    };
    const product = `${c.source}.air-temperature-daily-extremes-netcdf`;
    const script = [
      'import json, sys, xarray',
      'ds = xarray.open_dataset(sys.argv[1], engine="netcdf4")',
      'print(json.dumps({"time": [str(t)[:10] for t in ds.time.values], "lat": ds.lat.values.tolist(), "lon": ds.lon.values.tolist(),',
      '  "max": ds["air_temperature_daily_max"].values.tolist(), "min": ds["air_temperature_daily_min"].values.tolist()}))',
    ].join('\n');
    const wrong: unknown[] = [];
    // The local days the run covers at every longitude of its grid (-180 to -178.25): at -180 the
    // day is 12:00 to 12:00 UTC, 120 to 144 h (mx2t3's windows) and 144 to 168 h (mx2t6's) of the 12Z run.
    const days = [5, 6].map((d) => Math.floor(c.runMs / DAY) * DAY + d * DAY);
    for (const day of days) {
      const [d] = await get<Array<{ validTime?: string; downloadUrl: string }>>(
        'transfer',
        `/products/${product}/datasets?date=${iso(day).slice(0, 10)}`,
      );
      expect(d).toBeDefined();
      let res = await fetch(d!.downloadUrl);
      for (let k = 0; res.status === 503 && k < 150; k++) {
        await new Promise((r) => setTimeout(r, 200));
        res = await fetch(d!.downloadUrl);
      }
      expect(res.status).toBe(200);
      const file = join(dataDir, `extremes-${iso(day).slice(0, 10)}.nc`);
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const out = JSON.parse(await run(python, ['-c', script, file])) as {
        time: string[];
        lat: number[];
        lon: number[];
        max: number[][][];
        min: number[][][];
      };
      expect(out.time).toEqual([iso(day).slice(0, 10)]);
      out.lat.forEach((lat, y) =>
        out.lon.forEach((lon, x) => {
          for (const [name, sign] of [
            ['max', 1],
            ['min', -1],
          ] as const) {
            const value = extreme(day, lat, lon, sign);
            if (!closeStored(out[name][0]![y]![x]!, value))
              wrong.push({ day: iso(day).slice(0, 10), lat, lon, name, file: out[name][0]![y]![x], eccodes: value });
          }
        }),
      );
    }
    expect(wrong.slice(0, 6)).toEqual([]);
  }, 60_000);
});
