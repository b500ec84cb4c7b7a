/**
 * Runs written by ecCodes in each source's own layout (tests/integration/grib2_eccodes.py), synced
 * by `fieldcast sync <source> --once` from a local stand-in archive into one running fleet, then
 * read through every area that serves synced data: the model area's series (at a grid point, and
 * bilinear between grid points), the platform area's datapoints of the synced products, the tiles
 * area's pixels (a discrete style: the nearest grid point's value), and the transfer area's files
 * as netCDF-C (xarray) and GDAL (gdallocationinfo) read them. Every value must follow from
 * ecCodes' decoded values of the messages, in the units the interface states (K to °C, Pa to kPa,
 * 10 m wind to 2 m by FAO-56 eq. 47, accumulations to mm/h and W m-2), at the valid time its run
 * and step name (docs/decisions/0230-sync-sources-and-variables.md, 0250, 0255, 0315, 0340, 0379):
 * - `gfs-0p25`, a GFS run as NOAA publishes it: NCEP's parameter numbers, wgrib2's `.idx`,
 *   longitudes 0..360, statistics over intervals restarted every 6 hours, hourly steps;
 * - `ecmwf-ifs-0p25`, an ECMWF open data HRES run: ECMWF's shortNames in a JSON lines `.index`,
 *   CCSDS packing, a box of ECMWF's global grid from its first column (180, the antimeridian),
 *   `tp` (m) and `ssrd` (J m-2) accumulated from the start, steps every 3 hours then every 6.
 * Between steps more than an hour apart a run's store is hourly (0250): instants linear in time
 * between the steps, a mean rate at hour h the mean over the step interval holding (h - 1 h, h].
 *
 * ecCodes (python3-eccodes), GDAL (gdal-bin) and xarray with netCDF4 are needed: .ci/run installs
 * them; without them this file fails naming what is missing.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { startFleet, type StartedFleet } from '../../packages/fleet/src/start.js';
import { syncCommand } from '../../packages/fleet/src/sync.js';
import { type ArchiveServer, serveArchive } from '../../packages/sync/test/archive-server.js';
import { decodePng, pixelAt } from '../../services/tiles/test/png-decode.js';
import { findPython } from './python.js';

const SCRIPT = join(import.meta.dirname, 'grib2_eccodes.py');
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Today at 00Z: runs two days back (synced runs expire on the clock). */
const TODAY = Math.floor(Date.now() / DAY) * DAY;
/** FAO-56 eq. 47: the 2 m wind from the 10 m one. */
const U2_OVER_U10 = 4.87 / Math.log(67.8 * 10 - 5.42);
const iso = (ms: number) => new Date(ms).toISOString();
/** As the platform and transfer areas write a time. */
const isoShort = (ms: number) => iso(ms).replace('.000Z', 'Z');
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
const range = (from: number, to: number, by: number) => Array.from({ length: Math.floor((to - from) / by) + 1 }, (_, k) => from + k * by);

const run = async (cmd: string, args: string[]) => (await promisify(execFile)(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 })).stdout;

function requireTools(): string {
  const { python, tried } = findPython('eccodes, numpy, xarray, netCDF4', ['/usr/bin/python3', 'python3']);
  if (!python)
    throw new Error(
      `ecCodes or xarray is missing: no python with eccodes, numpy, xarray and netCDF4 (${tried.join('; ')}); install them with "apt-get install -y libeccodes-tools python3-eccodes python3-xarray python3-netcdf4" (Debian) or set FIELDCAST_PYTHON`,
    );
  try {
    execFileSync('gdallocationinfo', ['--version'], { stdio: 'pipe' });
  } catch {
    throw new Error('GDAL is missing: gdallocationinfo not found; install it with "apt-get install -y gdal-bin" (Debian)');
  }
  return python;
}

interface EccodesMessage {
  keys: Record<string, number | string>;
  values: Array<number | null>;
  latitudes: number[];
  longitudes: number[];
}

/** A regular grid as the source's messages give it: rows north to south from lat1, columns east from lon1 (the source's longitudes). */
interface Grid {
  ni: number;
  nj: number;
  lat1: number;
  lon1: number;
  dlat: number;
  dlon: number;
}

type Point = readonly [lat: number, lon: number];

/** The weather the tests compare, each a function of ecCodes' values at a step. */
type Parameter = 't' | 'td' | 'u' | 'v' | 'p' | 'rain' | 'sun';

/** One synced source, its run and where each area is looked at. */
interface Case {
  source: 'gfs-0p25' | 'ecmwf-ifs-0p25';
  /** grib2_eccodes.py's writer. */
  writer: 'gfs' | 'ecmwf';
  runMs: number;
  /** The steps written and synced, in hours. */
  steps: number[];
  grid: Grid;
  /** The catalog's transfer products over the grid: `<box>-temperature`, `<box>-precipitation`. */
  box: string;
  bbox: [number, number, number, number];
  /** The step of a file below the archive, null for an inventory. */
  stepOf: (file: string) => number | null;
  folder: (archive: string) => string;
  /** The key of a parameter's message among a step's, as ecCodes reads it. */
  keyOf: (m: EccodesMessage) => string;
  keys: Record<Parameter, string>;
  /**
   * An accumulation over (start, step], from ecCodes' value of its message at a step: rain in mm,
   * sun in W h m-2, so the difference of two over the hours between is mm/h and W m-2.
   */
  integral: (parameter: 'rain' | 'sun', step: number, value: number) => { start: number; value: number };
  /** Grid points (a corner, inside, the last column) and a point between them, in the API's longitudes. */
  gridPoints: readonly Point[];
  between: Point;
  /**
   * What float32 adds to a served rate beyond its rounding: the sync decodes to float32
   * (docs/decisions/0220), and an accumulation from the start grows large (ssrd near 2.4e8 J m-2 by
   * 156 h, float32 values 16 J apart, is 0.0015 W m-2 over 3 hours).
   */
  rateSlack: number;
  /** The tiles' style's lowest class, °C. */
  styleFrom: number;
  tileSteps: number[];
  /** The day (UTC) whose hourly netCDF is read, and the hours (UTC ms) GeoTIFFs are read at. */
  netcdfDay: number;
  geotiffHours: number[];
}

/** GFS restarts its statistics every 6 hours: 0-1 ... 0-6, 6-7 ... */
const gfsIntervalStart = (h: number) => 6 * Math.floor((h - 1) / 6);
const GFS_RUN = TODAY - 2 * DAY + 6 * HOUR;
/** ECMWF's 12Z run writes 0 to 144 h by 3, then to 240 h by 6 (sources.ts); synced to 156 h. */
const ECMWF_RUN = TODAY - 2 * DAY + 12 * HOUR;

const CASES: Case[] = [
  {
    source: 'gfs-0p25',
    writer: 'gfs',
    runMs: GFS_RUN,
    // Across two of GFS's 6-hour restarts, the last step in the run's UTC day.
    steps: range(0, 13, 1),
    // Iowa in GFS's longitudes: 265.5 to 267.25 (-94.5 to -92.75), 42.5 down to 41.5.
    grid: { ni: 8, nj: 5, lat1: 42.5, lon1: 265.5, dlat: 0.25, dlon: 0.25 },
    box: 'iowa',
    bbox: [-94.625, 41.375, -92.625, 42.625],
    stepOf: (file) => (file.endsWith('.idx') ? null : Number(/\.f(\d{3})$/.exec(file)![1])),
    folder: (archive) => join(archive, `gfs.${ymd(GFS_RUN)}`, String(new Date(GFS_RUN).getUTCHours()).padStart(2, '0'), 'atmos'),
    keyOf: (m) => `${m.keys.parameterCategory}/${m.keys.parameterNumber}`,
    keys: { t: '0/0', td: '0/6', u: '2/2', v: '2/3', p: '3/0', sun: '4/7', rain: '1/8' },
    // kg m-2 over the bucket is mm; the shortwave is an average over it.
    integral: (parameter, step, value) => {
      const start = gfsIntervalStart(step);
      return { start, value: parameter === 'rain' ? value : value * (step - start) };
    },
    gridPoints: [
      [42.5, -94.5],
      [42, -93.5],
      [41.5, -92.75],
    ],
    between: [42.1, -93.6],
    rateSlack: 0,
    styleFrom: 0,
    tileSteps: [0, 5, 7, 13],
    netcdfDay: TODAY - 2 * DAY,
    geotiffHours: [1, 6, 7, 13].map((h) => GFS_RUN + h * HOUR),
  },
  {
    source: 'ecmwf-ifs-0p25',
    writer: 'ecmwf',
    runMs: ECMWF_RUN,
    steps: [...range(0, 144, 3), 150, 156],
    // The first columns of ECMWF's global grid, which starts at 180 (-180 in the API), near Fiji.
    grid: { ni: 8, nj: 5, lat1: -16.5, lon1: 180, dlat: 0.25, dlon: 0.25 },
    box: 'fiji',
    bbox: [-180, -17.875, -178, -16.375],
    stepOf: (file) => (file.endsWith('.index') ? null : Number(/-(\d+)h-oper-fc\.grib2$/.exec(file)![1])),
    folder: (archive) =>
      join(archive, ymd(ECMWF_RUN), `${String(new Date(ECMWF_RUN).getUTCHours()).padStart(2, '0')}z`, 'ifs', '0p25', 'oper'),
    keyOf: (m) => String(m.keys.shortName),
    keys: { t: '2t', td: '2d', u: '10u', v: '10v', p: 'sp', sun: 'ssrd', rain: 'tp' },
    // From the start of the forecast: tp in m, ssrd in J m-2.
    integral: (parameter, _step, value) => ({ start: 0, value: parameter === 'rain' ? value * 1000 : value / 3600 }),
    gridPoints: [
      [-16.5, -180],
      [-17, -179],
      [-17.5, -178.25],
    ],
    between: [-16.9, -179.1],
    rateSlack: 0.002,
    styleFrom: -15,
    tileSteps: [0, 3, 144, 150],
    // Hours 132 to 155 of the run: 3-hourly steps to 144, then 150 and 156.
    netcdfDay: ECMWF_RUN + 132 * HOUR,
    geotiffHours: [132, 133, 146, 155].map((h) => ECMWF_RUN + h * HOUR),
  },
];

/** Transfer products over each run's grid, in the synced sources' own products too (docs/decisions/0340). */
const CATALOG = `
transferProducts:
${CASES.map(
  (c) => `  - name: ${c.box}-temperature
    description: Hourly 2 m air temperature over the ${c.source} test grid
    format: GeoTIFF
    variable: air_temperature
    cadenceMinutes: 60
    bbox: [${c.bbox.join(', ')}]
    resolution: 0.25
  - name: ${c.box}-precipitation
    description: Hourly precipitation rate over the ${c.source} test grid
    format: GeoTIFF
    variable: precipitation_rate
    cadenceMinutes: 60
    bbox: [${c.bbox.join(', ')}]
    resolution: 0.25
`,
).join('')}`;

let python: string;
let archive: string;
let dataDir: string;
let server: ArchiveServer;
let started: StartedFleet;
let auth: string;
/** ecCodes' messages by source, step and parameter key. */
const reference = new Map<string, Map<number, Map<string, EccodesMessage>>>();

const url = (area: string) => started.fleet.services.find((s) => s.area === area)!.url;
async function get<T>(area: string, path: string): Promise<T> {
  const res = await fetch(`${url(area)}${path}`, { headers: { Authorization: auth } });
  expect([path, res.status]).toEqual([path, 200]);
  return (await res.json()) as T;
}

beforeAll(async () => {
  python = requireTools();
  archive = mkdtempSync(join(tmpdir(), 'synced-eccodes-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'synced-eccodes-data-'));
  for (const c of CASES) {
    const t = new Date(c.runMs);
    execFileSync(python, [
      SCRIPT,
      c.writer,
      archive,
      JSON.stringify({ date: Number(ymd(c.runMs)), time: t.getUTCHours() * 100, steps: c.steps, grid: c.grid }),
    ]);
    const folder = c.folder(archive);
    const files = readdirSync(folder).filter((f) => c.stepOf(f) !== null);
    const read = JSON.parse(
      execFileSync(python, [SCRIPT, 'read-files', ...files.map((f) => join(folder, f))], { encoding: 'utf8', maxBuffer: 1 << 28 }),
    ) as Record<string, EccodesMessage[]>;
    reference.set(c.source, new Map(files.map((f) => [c.stepOf(f)!, new Map(read[join(folder, f)]!.map((m) => [c.keyOf(m), m]))])));
  }
  server = await serveArchive(archive);
  writeFileSync(join(archive, 'catalog.yaml'), CATALOG);
  const env = parseEnv(FleetEnv, {
    FIELDCAST_CATALOG: join(archive, 'catalog.yaml'),
    FIELDCAST_DATA_DIR: dataDir,
    PORT_BASE: String(reservePortBase()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FIELDCAST_SYNC_RELOAD_MS: '200',
  });
  started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
  auth = `Basic ${Buffer.from(`${started.demo!.applicationId}:${started.demo!.applicationKey}`).toString('base64')}`;
  const syncEnv = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
    FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL: server.baseUrl,
  });
  for (const c of CASES) {
    const lines: string[] = [];
    const hh = `${iso(c.runMs).slice(0, 13)}Z`;
    await syncCommand([c.source, '--once', '--run', hh, '--steps', `0-${c.steps.at(-1)}`], syncEnv, (l) => lines.push(l));
    expect(lines.at(-1)).toMatch(new RegExp(`${c.steps.length} steps`));
  }
  // The areas take the runs within the reload period.
  for (const c of CASES)
    for (let k = 0; k < 100; k++) {
      const [lat, lon] = c.gridPoints[1]!;
      const res = await fetch(`${url('model')}/models/${c.source}/latest-forecast/timeseries/${lat}/${lon}`, {
        headers: { Authorization: auth },
      });
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
}, 300_000);
afterAll(async () => {
  await started?.fleet.stop();
  await server?.close();
  for (const dir of [archive, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

type Expected = (h: number, lat: number, lon: number) => number | null;

/**
 * What the interface serves of each variable at a grid point `h` hours into the run, from ecCodes'
 * values. Instants: the step's value, linear in time between steps more than an hour apart.
 * Rates: the mean over the hour ending at `h` (docs/decisions/0379), which is the mean over the
 * step interval holding that hour (0250): the accumulation at its end less the one at its start
 * where both run from one start, or the accumulation itself when its interval starts at the
 * interval's start (GFS's 6-hourly restarts, or the first step), over the hours between; floored
 * at 0 (0230). Null at the run's start, where a rate covers no time.
 */
function expectations(c: Case): Record<string, Expected> {
  const steps = reference.get(c.source)!;
  const at = (step: number, parameter: Parameter, lat: number, lon: number): number => {
    const m = steps.get(step)?.get(c.keys[parameter]);
    if (!m) throw new Error(`ecCodes read no ${c.keys[parameter]} at step ${step} of ${c.source}`);
    // The sources' longitudes start east of 180 here (GFS 0..360, ECMWF's grid from 180): -93.6 is 266.4.
    const east = (lon + 360) % 360;
    const k = m.latitudes.findIndex((la, i) => Math.abs(la - lat) < 1e-6 && Math.abs(m.longitudes[i]! - east) < 1e-6);
    if (k < 0) throw new Error(`${lat}, ${lon} is no grid point of ecCodes' ${c.keys[parameter]}`);
    return m.values[k]!;
  };
  const around = (h: number) => {
    const after = c.steps.find((s) => s >= h);
    if (after === undefined || h < c.steps[0]!) throw new Error(`${c.source}: hour ${h} is outside the run's steps`);
    return { before: c.steps[c.steps.indexOf(after) - 1], after };
  };
  const instant =
    (value: (step: number, lat: number, lon: number) => number): Expected =>
    (h, lat, lon) => {
      const { before, after } = around(h);
      if (after === h) return value(h, lat, lon);
      const f = (h - before!) / (after - before!);
      return (1 - f) * value(before!, lat, lon) + f * value(after, lat, lon);
    };
  const rate =
    (parameter: 'rain' | 'sun'): Expected =>
    (h, lat, lon) => {
      if (h === 0) return null;
      const { before, after } = around(h);
      const end = c.integral(parameter, after, at(after, parameter, lat, lon));
      const chained = before !== undefined && before > end.start && c.integral(parameter, before, 0).start === end.start;
      const from = chained ? before : end.start;
      const less = chained ? c.integral(parameter, before, at(before, parameter, lat, lon)).value : 0;
      return Math.max(0, (end.value - less) / (after - from));
    };
  return {
    temperature: instant((s, la, lo) => at(s, 't', la, lo) - 273.15),
    dewPoint: instant((s, la, lo) => at(s, 'td', la, lo) - 273.15),
    surfacePressure: instant((s, la, lo) => at(s, 'p', la, lo) / 1000),
    windSpeed: instant((s, la, lo) => Math.hypot(at(s, 'u', la, lo), at(s, 'v', la, lo)) * U2_OVER_U10),
    precipitationRate: rate('rain'),
    shortwaveRadiation: rate('sun'),
  };
}

/** Bilinear between the four grid points around (lat, lon), of the values at the grid points. */
function bilinear(c: Case, at: (lat: number, lon: number) => number | null, lat: number, lon: number): number | null {
  const d = c.grid.dlat;
  const [la0, lo0] = [Math.floor(lat / d) * d, Math.floor(lon / d) * d];
  const [fy, fx] = [(lat - la0) / d, (lon - lo0) / d];
  const v = [at(la0, lo0), at(la0, lo0 + d), at(la0 + d, lo0), at(la0 + d, lo0 + d)];
  if (v.some((x) => x === null)) return null;
  const [v00, v01, v10, v11] = v as number[];
  return (1 - fy) * ((1 - fx) * v00! + fx * v01!) + fy * ((1 - fx) * v10! + fx * v11!);
}

/** Served at two decimals (docs/decisions/0009): half a hundredth, and float32's rounding (`slack` more for a rate). */
const closeServed = (served: number | null, expected: number | null, slack = 0) =>
  expected === null ? served === null : served !== null && Math.abs(served - expected) <= 0.005 + 1e-4 + slack;
const RATES = new Set(['precipitationRate', 'shortwaveRadiation']);
/** As a file holds it: float32. */
const closeStored = (stored: number, expected: number) => Math.abs(stored - expected) <= 1e-4 + Math.abs(expected) * 2 ** -22;

interface VariableSeries {
  series: Array<{ validTime: string; value: number | null }>;
  unit: { label: string };
}

interface Frame {
  id: string;
  validTime: string;
}

interface DatasetRecord {
  name: string;
  validTime?: string | null;
  validTimes?: string[];
  downloadUrl: string;
}

/** The file behind a dataset's link, saved to `file` once made (503 while it is being made). */
async function download(d: DatasetRecord, file: string): Promise<string> {
  let res = await fetch(d.downloadUrl);
  for (let k = 0; res.status === 503 && k < 150; k++) {
    await new Promise((r) => setTimeout(r, 200));
    res = await fetch(d.downloadUrl);
  }
  expect(res.status).toBe(200);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

describe.each(CASES)('$source', (c) => {
  /**
   * A synced product's frames: the analysis' hours, hourly from the run's start to the next run's
   * (6 hours; mean rates an hour later), then the run's steps after them (docs/decisions/0250,
   * "Analysis"; 0315, "Frames").
   */
  const framesOf = (name: string) => {
    const analysis = RATES.has(name) ? range(1, 6, 1) : range(0, 5, 1);
    return [...analysis, ...c.steps.filter((h) => h > analysis.at(-1)!)];
  };

  describe('the model area', () => {
    // The dewpoint follows its restricted product, not granted to this account (docs/decisions/0429).
    const UNITS = { temperature: '°C', surfacePressure: 'kPa', windSpeed: 'm/s', precipitationRate: 'mm/h', shortwaveRadiation: 'W/m²' };

    it.each([
      ...c.gridPoints.map(([la, lo]) => [`at grid point ${la}, ${lo}`, la, lo, false] as const),
      [`between grid points, at ${c.between.join(', ')} (bilinear)`, ...c.between, true] as const,
    ])(
      "serves ecCodes' values %s, at run + step for every step to the last, in the interface's units",
      async (_name, lat, lon, between) => {
        const expected = expectations(c);
        const latest = await get<{ forecast: string; variables: Record<string, VariableSeries> }>(
          'model',
          `/models/${c.source}/latest-forecast/timeseries/${lat}/${lon}`,
        );
        for (const [name, label] of Object.entries(UNITS)) {
          const v = latest.variables[name];
          expect([name, v?.unit.label]).toEqual([name, label]);
          expect(v!.series.map((p) => p.validTime)).toEqual(c.steps.map((h) => iso(c.runMs + h * HOUR)));
          const wrong = v!.series.flatMap((p, k) => {
            const h = c.steps[k]!;
            const at = (la: number, lo: number) => expected[name]!(h, la, lo);
            const value = between ? bilinear(c, at, lat, lon) : at(lat, lon);
            return closeServed(p.value, value, RATES.has(name) ? c.rateSlack : 0)
              ? []
              : [{ name, step: h, served: p.value, eccodes: value }];
          });
          expect(wrong).toEqual([]);
        }
      },
    );
  });

  describe('the platform area', () => {
    it.each([
      [`${c.source}.air-temperature`, 'temperature', '°C'],
      [`${c.source}.precipitation-rate`, 'precipitationRate', 'mm/h'],
    ] as const)("%s: frames at run + step, and datapoints of ecCodes' values at and between grid points", async (product, name, label) => {
      const expected = expectations(c);
      const frames = await get<Frame[]>('platform', `/products/${product}/frames?sort=asc&limit=1000`);
      expect(frames.map((f) => f.validTime)).toEqual(framesOf(name).map((h) => isoShort(c.runMs + h * HOUR)));
      const wrong: unknown[] = [];
      for (const f of frames) {
        const h = (Date.parse(f.validTime) - c.runMs) / HOUR;
        for (const [lat, lon, between] of [...c.gridPoints.map(([la, lo]) => [la, lo, false] as const), [...c.between, true] as const]) {
          const point = await get<{ value: number | null; unit: { label: string } }>('platform', `/frames/${f.id}/datapoint/${lat}/${lon}`);
          expect(point.unit.label).toBe(label);
          const at = (la: number, lo: number) => expected[name]!(h, la, lo);
          const value = between ? bilinear(c, at, lat, lon) : at(lat, lon);
          if (point.value === null || !closeServed(point.value, value, RATES.has(name) ? c.rateSlack : 0))
            wrong.push({ step: h, lat, lon, served: point.value, eccodes: value });
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  describe('the tiles area', () => {
    /** 1000 classes of 0.03 °C from `styleFrom`, class k drawn as red k % 256 and green k / 256: a pixel names its class. */
    const STYLE = {
      name: `${c.source}-temperature-classes`,
      description: `Classes of 0.03 °C from ${c.styleFrom} to ${c.styleFrom + 30} °C`,
      layerName: 'air_temperature',
      colorizers: [
        {
          defaultColor: 'rgba(0, 0, 0, 0)',
          defaultMode: 'discrete',
          stops: Array.from({ length: 1000 }, (_, k) => ({
            value: Math.round(c.styleFrom * 100 + k * 3) / 100,
            color: `rgba(${k % 256}, ${k >> 8}, 0, 1)`,
          })),
        },
      ],
    };

    it("draws each grid point's ecCodes value, in a discrete style, at the pixel the datapoint names", async () => {
      const expected = expectations(c);
      const product = `${c.source}.air-temperature`;
      const created = await fetch(`${url('tiles')}/v2/products/${product}/styles`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(STYLE),
      });
      expect(created.status).toBe(201);
      const frames = await get<Frame[]>('platform', `/products/${product}/frames?sort=asc&limit=1000`);
      const wrong: unknown[] = [];
      for (const h of c.tileSteps) {
        const frame = frames.find((f) => f.validTime === isoShort(c.runMs + h * HOUR))!;
        // each grid point's value at the pixel its datapoint names, a corner's too (docs/decisions/0441)
        for (const [lat, lon] of c.gridPoints) {
          const point = await get<{ tile: { z: number; x: number; y: number }; pixel: { row: number; column: number } }>(
            'platform',
            `/frames/${frame.id}/datapoint/${lat}/${lon}`,
          );
          const { z, x, y } = point.tile;
          const res = await fetch(`${url('tiles')}/v2/frames/${frame.id}/tile/${z}/${x}/${y}.png?style=${STYLE.name}`, {
            headers: { Authorization: auth, Accept: 'image/png' },
          });
          expect(res.status).toBe(200);
          const [red, green, , alpha] = pixelAt(decodePng(Buffer.from(await res.arrayBuffer())), point.pixel.row, point.pixel.column);
          const low = c.styleFrom + (red! + 256 * green!) * 0.03;
          const value = expected.temperature!(h, lat, lon)!;
          if (alpha !== 255 || value < low - 1e-4 || value >= low + 0.03 + 1e-4)
            wrong.push({ step: h, lat, lon, drawnFrom: low, alpha, eccodes: value });
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  describe('the transfer area', () => {
    it.each([
      [`${c.source}.air-temperature-hourly-netcdf`, 'air_temperature', 'temperature'],
      [`${c.source}.precipitation-rate-hourly-netcdf`, 'precipitation_rate', 'precipitationRate'],
    ] as const)(
      "%s: xarray reads ecCodes' values at every grid point and hour of a day, north to south in -180..180",
      async (product, variable, name) => {
        const expected = expectations(c);
        const [d] = await get<DatasetRecord[]>('transfer', `/products/${product}/datasets?date=${iso(c.netcdfDay).slice(0, 10)}`);
        // Every hour of the day the run's store holds: instants from the run's start, mean rates from an hour after.
        const first = c.runMs + (name === 'precipitationRate' ? HOUR : 0);
        const last = c.runMs + c.steps.at(-1)! * HOUR;
        const day = Math.floor(c.netcdfDay / DAY) * DAY;
        const hours = range(day, day + 23 * HOUR, HOUR).filter((t) => t >= first && t <= last);
        expect(d!.validTimes).toEqual(hours.map(isoShort));
        const file = await download(d!, join(dataDir, `${product}.nc`));
        const script = [
          'import json, sys, xarray',
          'ds = xarray.open_dataset(sys.argv[1], engine="netcdf4")',
          'v = ds[sys.argv[2]]',
          'print(json.dumps({"time": [str(t)[:19] + "Z" for t in ds.time.values], "lat": ds.lat.values.tolist(),',
          '  "lon": ds.lon.values.tolist(), "units": v.attrs["units"], "dims": list(v.dims), "values": v.values.tolist()}))',
        ].join('\n');
        const out = JSON.parse(await run(python, ['-c', script, file, variable])) as {
          time: string[];
          lat: number[];
          lon: number[];
          units: string;
          dims: string[];
          values: number[][][];
        };
        expect(out.time).toEqual(d!.validTimes);
        expect(out.dims).toEqual(['time', 'lat', 'lon']);
        expect(out.lat).toEqual(Array.from({ length: c.grid.nj }, (_, y) => c.grid.lat1 - y * c.grid.dlat));
        expect(out.lon).toEqual(Array.from({ length: c.grid.ni }, (_, x) => c.grid.lon1 - 360 + x * c.grid.dlon));
        expect(out.units).toBe(name === 'temperature' ? 'degC' : 'mm h-1');
        const wrong: unknown[] = [];
        out.time.forEach((t, k) => {
          const h = (Date.parse(t) - c.runMs) / HOUR;
          out.lat.forEach((lat, y) =>
            out.lon.forEach((lon, x) => {
              const value = expected[name]!(h, lat, lon)!;
              if (!closeStored(out.values[k]![y]![x]!, value))
                wrong.push({ hour: h, lat, lon, file: out.values[k]![y]![x], eccodes: value });
            }),
          );
        });
        expect(wrong.slice(0, 5)).toEqual([]);
      },
    );

    it.each([
      [`${c.source}.${c.box}-temperature`, 'temperature'],
      [`${c.source}.${c.box}-precipitation`, 'precipitationRate'],
    ] as const)("%s: gdallocationinfo finds ecCodes' values at grid points, by WGS 84 longitude and latitude", async (product, name) => {
      const expected = expectations(c);
      const wrong: unknown[] = [];
      for (const t of c.geotiffHours) {
        const hours = await get<DatasetRecord[]>('transfer', `/products/${product}/datasets?date=${iso(t).slice(0, 10)}`);
        const h = (t - c.runMs) / HOUR;
        const d = hours.find((x) => x.validTime === isoShort(t));
        expect([h, d?.validTime]).toEqual([h, isoShort(t)]);
        const file = await download(d!, join(dataDir, `${product}-${h}.tif`));
        for (const [lat, lon] of c.gridPoints) {
          const out = await run('gdallocationinfo', ['-valonly', '-wgs84', file, String(lon), String(lat)]);
          const value = expected[name]!(h, lat, lon)!;
          if (!closeStored(Number(out.trim()), value)) wrong.push({ hour: h, lat, lon, file: out.trim(), eccodes: value });
        }
      }
      expect(wrong).toEqual([]);
    });
  });
});
