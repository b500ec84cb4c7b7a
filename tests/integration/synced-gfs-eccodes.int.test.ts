/**
 * A GFS run as NOAA publishes it, written by ecCodes (tests/integration/grib2_eccodes.py `gfs`:
 * NCEP's parameter numbers, wgrib2's `.idx`, longitudes 0..360, rows north to south, statistics
 * over intervals restarted every 6 hours), synced by `fieldcast sync gfs-0p25 --once` from a local
 * stand-in archive into a running fleet, then read through every area that serves synced data:
 * the model area's series (at a grid point, and bilinear between grid points), the platform
 * area's datapoints of the synced products, the tiles area's pixels (a discrete style: the
 * nearest grid point's value), and the transfer area's files as netCDF-C (xarray) and GDAL
 * (gdallocationinfo) read them. Every value must be ecCodes' decoded value of the message, in the
 * units the interface states (K to °C, Pa to kPa, 10 m wind to 2 m by FAO-56 eq. 47, kg m-2 over
 * an interval to mm/h over the hour ending at each step), at the valid time its run and step name
 * (docs/decisions/0230-sync-sources-and-variables.md, 0255, 0315, 0340, 0379).
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
/** A run two days back (synced runs expire on the clock), its last step in the same UTC day. */
const RUN = Math.floor(Date.now() / DAY) * DAY - 2 * DAY + 6 * HOUR;
/** Across two of GFS's 6-hour restarts: 0-1 ... 0-6, 6-7 ... 6-12, 12-13. */
const LAST = 13;
const STEPS = Array.from({ length: LAST + 1 }, (_, h) => h);
/** Iowa in GFS's longitudes: 265.5 to 267.25 (-94.5 to -92.75), 42.5 down to 41.5. */
const GRID = { ni: 8, nj: 5, lat1: 42.5, lon1: 265.5, dlat: 0.25, dlon: 0.25 };
/** FAO-56 eq. 47: the 2 m wind from the 10 m one. */
const U2_OVER_U10 = 4.87 / Math.log(67.8 * 10 - 5.42);
const iso = (ms: number) => new Date(ms).toISOString();
/** As the platform and transfer areas write a time. */
const isoShort = (ms: number) => iso(ms).replace('.000Z', 'Z');
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

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

/** Transfer products over the run's grid, in the synced source's own products too (docs/decisions/0340). */
const CATALOG = `
transferProducts:
  - name: iowa-temperature
    description: Hourly 2 m air temperature over the test grid
    format: GeoTIFF
    variable: air_temperature
    cadenceMinutes: 60
    bbox: [-94.625, 41.375, -92.625, 42.625]
    resolution: 0.25
  - name: iowa-precipitation
    description: Hourly precipitation rate over the test grid
    format: GeoTIFF
    variable: precipitation_rate
    cadenceMinutes: 60
    bbox: [-94.625, 41.375, -92.625, 42.625]
    resolution: 0.25
`;

interface EccodesMessage {
  keys: Record<string, number | string>;
  values: Array<number | null>;
  latitudes: number[];
  longitudes: number[];
}

/** ecCodes' messages of one step, by NCEP parameter (category/number). */
type Step = Map<string, EccodesMessage>;

let python: string;
let archive: string;
let dataDir: string;
let server: ArchiveServer;
let started: StartedFleet;
let auth: string;
const reference = new Map<number, Step>();

const url = (area: string) => started.fleet.services.find((s) => s.area === area)!.url;
async function get<T>(area: string, path: string): Promise<T> {
  const res = await fetch(`${url(area)}${path}`, { headers: { Authorization: auth } });
  expect([path, res.status]).toEqual([path, 200]);
  return (await res.json()) as T;
}

beforeAll(async () => {
  python = requireTools();
  archive = mkdtempSync(join(tmpdir(), 'gfs-eccodes-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'gfs-eccodes-data-'));
  const t = new Date(RUN);
  execFileSync(python, [
    SCRIPT,
    'gfs',
    archive,
    JSON.stringify({ date: Number(ymd(RUN)), time: t.getUTCHours() * 100, steps: STEPS, grid: GRID }),
  ]);
  const folder = join(archive, `gfs.${ymd(RUN)}`, String(t.getUTCHours()).padStart(2, '0'), 'atmos');
  for (const file of readdirSync(folder).filter((f) => !f.endsWith('.idx'))) {
    const step = Number(/\.f(\d{3})$/.exec(file)![1]);
    const messages = JSON.parse(
      execFileSync(python, [SCRIPT, 'read', join(folder, file)], { encoding: 'utf8', maxBuffer: 1 << 26 }),
    ) as EccodesMessage[];
    reference.set(step, new Map(messages.map((m) => [`${m.keys.parameterCategory}/${m.keys.parameterNumber}`, m])));
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
  const lines: string[] = [];
  const syncEnv = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl });
  const hh = `${new Date(RUN).toISOString().slice(0, 13)}Z`;
  await syncCommand(['gfs-0p25', '--once', '--run', hh, '--steps', `0-${LAST}`], syncEnv, (l) => lines.push(l));
  expect(lines.at(-1)).toMatch(new RegExp(`${LAST + 1} steps`));
  // The areas take the run within the reload period.
  for (let k = 0; k < 100; k++) {
    const res = await fetch(`${url('model')}/models/gfs-0p25/latest-forecast/timeseries/42/-93.5`, { headers: { Authorization: auth } });
    if (res.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 240_000);
afterAll(async () => {
  await started?.fleet.stop();
  await server?.close();
  for (const dir of [archive, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** ecCodes' value of a parameter at a grid point named in the API's longitudes (-180..180). */
function eccodesAt(step: number, parameter: string, lat: number, lon: number): number {
  const m = reference.get(step)?.get(parameter);
  if (!m) throw new Error(`ecCodes read no ${parameter} at step ${step}`);
  // GFS's longitudes are 0..360: -93.6 is its 266.4.
  const east = (lon + 360) % 360;
  const k = m.latitudes.findIndex((la, i) => Math.abs(la - lat) < 1e-6 && Math.abs(m.longitudes[i]! - east) < 1e-6);
  if (k < 0) throw new Error(`${lat}, ${lon} is no grid point of ecCodes' ${parameter}`);
  return m.values[k]!;
}

const PARAM = { t: '0/0', td: '0/6', u: '2/2', v: '2/3', p: '3/0', sun: '4/7', rain: '1/8', tmax: '0/4', tmin: '0/5' };
const gfsIntervalStart = (h: number) => 6 * Math.floor((h - 1) / 6);

/**
 * What the interface serves at a grid point `h` hours into the run, from ecCodes' values: rates are
 * the mean over the hour ending at `h` (docs/decisions/0379): an accumulation over (t0, h] less the
 * one over (t0, h - 1] of the same 6-hour bucket, or itself at the bucket's first hour; an average
 * times its hours likewise; kg m-2 in an hour is mm/h.
 */
const EXPECTED: Record<string, (h: number, lat: number, lon: number) => number | null> = {
  temperature: (h, la, lo) => eccodesAt(h, PARAM.t, la, lo) - 273.15,
  dewPoint: (h, la, lo) => eccodesAt(h, PARAM.td, la, lo) - 273.15,
  surfacePressure: (h, la, lo) => eccodesAt(h, PARAM.p, la, lo) / 1000,
  windSpeed: (h, la, lo) => Math.hypot(eccodesAt(h, PARAM.u, la, lo), eccodesAt(h, PARAM.v, la, lo)) * U2_OVER_U10,
  precipitationRate: (h, la, lo) => {
    if (h === 0) return null;
    const t0 = gfsIntervalStart(h);
    const before = h - 1 > t0 ? eccodesAt(h - 1, PARAM.rain, la, lo) : 0;
    return Math.max(0, eccodesAt(h, PARAM.rain, la, lo) - before);
  },
  shortwaveRadiation: (h, la, lo) => {
    if (h === 0) return null;
    const t0 = gfsIntervalStart(h);
    const before = h - 1 > t0 ? eccodesAt(h - 1, PARAM.sun, la, lo) * (h - 1 - t0) : 0;
    return Math.max(0, eccodesAt(h, PARAM.sun, la, lo) * (h - t0) - before);
  },
};

/** Bilinear between the four grid points around (lat, lon), of the values at the grid points. */
function bilinear(at: (lat: number, lon: number) => number | null, lat: number, lon: number): number | null {
  const d = GRID.dlat;
  const [la0, lo0] = [Math.floor(lat / d) * d, Math.floor(lon / d) * d];
  const [fy, fx] = [(lat - la0) / d, (lon - lo0) / d];
  const v = [at(la0, lo0), at(la0, lo0 + d), at(la0 + d, lo0), at(la0 + d, lo0 + d)];
  if (v.some((x) => x === null)) return null;
  const [v00, v01, v10, v11] = v as number[];
  return (1 - fy) * ((1 - fx) * v00! + fx * v01!) + fy * ((1 - fx) * v10! + fx * v11!);
}

/** Grid points (a corner, inside, the last column) and a point between them, in the API's longitudes. */
const GRID_POINTS = [
  [42.5, -94.5],
  [42, -93.5],
  [41.5, -92.75],
] as const;
const BETWEEN = [42.1, -93.6] as const;
/**
 * Grid points inside the grid: a tile's pixel at an outermost grid point has its centre outside
 * the product's coverage as often as not, and is drawn transparent there.
 */
const INNER_POINTS = [
  [42.25, -94.25],
  [42, -93.5],
  [41.75, -93],
] as const;

interface VariableSeries {
  series: Array<{ validTime: string; value: number | null }>;
  unit: { label: string };
}

describe('the model area', () => {
  // The dewpoint follows its restricted product, not granted to this account (docs/decisions/0429).
  const UNITS = { temperature: '°C', surfacePressure: 'kPa', windSpeed: 'm/s', precipitationRate: 'mm/h', shortwaveRadiation: 'W/m²' };

  it.each([
    ...GRID_POINTS.map(([la, lo]) => [`at grid point ${la}, ${lo}`, la, lo, false] as const),
    [`between grid points, at ${BETWEEN.join(', ')} (bilinear)`, ...BETWEEN, true] as const,
  ])("serves ecCodes' values %s, at run + step for every step to the last, in the interface's units", async (_name, lat, lon, between) => {
    const latest = await get<{ forecast: string; variables: Record<string, VariableSeries> }>(
      'model',
      `/models/gfs-0p25/latest-forecast/timeseries/${lat}/${lon}`,
    );
    for (const [name, label] of Object.entries(UNITS)) {
      const v = latest.variables[name];
      expect([name, v?.unit.label]).toEqual([name, label]);
      expect(v!.series.map((p) => p.validTime)).toEqual(STEPS.map((h) => iso(RUN + h * HOUR)));
      const wrong = v!.series.flatMap((p, h) => {
        const at = (la: number, lo: number) => EXPECTED[name]!(h, la, lo);
        const expected = between ? bilinear(at, lat, lon) : at(lat, lon);
        // Served at two decimals (docs/decisions/0009): half a hundredth, and float32's rounding.
        const ok = expected === null ? p.value === null : p.value !== null && Math.abs(p.value - expected) <= 0.005 + 1e-4;
        return ok ? [] : [{ name, step: h, served: p.value, eccodes: expected }];
      });
      expect(wrong).toEqual([]);
    }
  });
});

interface Frame {
  id: string;
  validTime: string;
}

describe('the platform area', () => {
  it.each([
    ['gfs-0p25.air-temperature', 'temperature', '°C'],
    ['gfs-0p25.precipitation-rate', 'precipitationRate', 'mm/h'],
  ] as const)("%s: frames at run + step, and datapoints of ecCodes' values at and between grid points", async (product, name, label) => {
    const frames = await get<Frame[]>('platform', `/products/${product}/frames?sort=asc&limit=1000`);
    const first = name === 'precipitationRate' ? 1 : 0;
    expect(frames.map((f) => f.validTime)).toEqual(STEPS.slice(first).map((h) => isoShort(RUN + h * HOUR)));
    const wrong: unknown[] = [];
    for (const f of frames) {
      const h = (Date.parse(f.validTime) - RUN) / HOUR;
      for (const [lat, lon, between] of [...GRID_POINTS.map(([la, lo]) => [la, lo, false] as const), [...BETWEEN, true] as const]) {
        const point = await get<{ value: number | null; unit: { label: string } }>('platform', `/frames/${f.id}/datapoint/${lat}/${lon}`);
        expect(point.unit.label).toBe(label);
        const at = (la: number, lo: number) => EXPECTED[name]!(h, la, lo);
        const expected = between ? bilinear(at, lat, lon) : at(lat, lon);
        if (point.value === null || expected === null || Math.abs(point.value - expected) > 0.005 + 1e-4)
          wrong.push({ step: h, lat, lon, served: point.value, eccodes: expected });
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the tiles area', () => {
  /** 1000 classes of 0.03 °C from 0 °C, class k drawn as red k % 256 and green k / 256: a pixel names its class. */
  const STYLE = {
    name: 'gfs-temperature-classes',
    description: 'Classes of 0.03 °C from 0 to 30 °C',
    layerName: 'air_temperature',
    colorizers: [
      {
        defaultColor: 'rgba(0, 0, 0, 0)',
        defaultMode: 'discrete',
        stops: Array.from({ length: 1000 }, (_, k) => ({ value: Math.round(k * 3) / 100, color: `rgba(${k % 256}, ${k >> 8}, 0, 1)` })),
      },
    ],
  };

  it("draws each grid point's ecCodes value, in a discrete style, at the pixel the datapoint names", async () => {
    const created = await fetch(`${url('tiles')}/v2/products/gfs-0p25.air-temperature/styles`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(STYLE),
    });
    expect(created.status).toBe(201);
    const frames = await get<Frame[]>('platform', `/products/gfs-0p25.air-temperature/frames?sort=asc&limit=1000`);
    const wrong: unknown[] = [];
    for (const h of [0, 5, 7, LAST]) {
      const frame = frames.find((f) => f.validTime === isoShort(RUN + h * HOUR))!;
      for (const [lat, lon] of INNER_POINTS) {
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
        const low = (red! + 256 * green!) * 0.03;
        const expected = EXPECTED.temperature!(h, lat, lon)!;
        if (alpha !== 255 || expected < low - 1e-4 || expected >= low + 0.03 + 1e-4)
          wrong.push({ step: h, lat, lon, drawnFrom: low, alpha, eccodes: expected });
      }
    }
    expect(wrong).toEqual([]);
  });
});

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

describe('the transfer area', () => {
  it.each([
    ['gfs-0p25.air-temperature-hourly-netcdf', 'air_temperature', 'temperature'],
    ['gfs-0p25.precipitation-rate-hourly-netcdf', 'precipitation_rate', 'precipitationRate'],
  ] as const)(
    "%s: xarray reads ecCodes' values at every grid point and hour, north to south in -180..180",
    async (product, variable, name) => {
      const [d] = await get<DatasetRecord[]>('transfer', `/products/${product}/datasets?date=${iso(RUN).slice(0, 10)}`);
      const first = name === 'precipitationRate' ? 1 : 0;
      expect(d!.validTimes).toEqual(STEPS.slice(first).map((h) => isoShort(RUN + h * HOUR)));
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
      expect(out.lat).toEqual(Array.from({ length: GRID.nj }, (_, y) => GRID.lat1 - y * GRID.dlat));
      expect(out.lon).toEqual(Array.from({ length: GRID.ni }, (_, x) => GRID.lon1 - 360 + x * GRID.dlon));
      expect(out.units).toBe(name === 'temperature' ? 'degC' : 'mm h-1');
      const wrong: unknown[] = [];
      out.time.forEach((t, k) => {
        const h = (Date.parse(t) - RUN) / HOUR;
        out.lat.forEach((lat, y) =>
          out.lon.forEach((lon, x) => {
            const expected = EXPECTED[name]!(h, lat, lon)!;
            if (!(Math.abs(out.values[k]![y]![x]! - expected) <= 1e-4 + Math.abs(expected) * 2 ** -22))
              wrong.push({ step: h, lat, lon, file: out.values[k]![y]![x], eccodes: expected });
          }),
        );
      });
      expect(wrong.slice(0, 5)).toEqual([]);
    },
  );

  it.each([
    ['gfs-0p25.iowa-temperature', 'temperature'],
    ['gfs-0p25.iowa-precipitation', 'precipitationRate'],
  ] as const)("%s: gdallocationinfo finds ecCodes' values at grid points, by WGS 84 longitude and latitude", async (product, name) => {
    const hours = await get<DatasetRecord[]>('transfer', `/products/${product}/datasets?date=${iso(RUN).slice(0, 10)}`);
    const wrong: unknown[] = [];
    for (const h of [1, 6, 7, LAST]) {
      const d = hours.find((x) => x.validTime === isoShort(RUN + h * HOUR));
      expect([h, d?.validTime]).toEqual([h, isoShort(RUN + h * HOUR)]);
      const file = await download(d!, join(dataDir, `${product}-${h}.tif`));
      for (const [lat, lon] of GRID_POINTS) {
        const out = await run('gdallocationinfo', ['-valonly', '-wgs84', file, String(lon), String(lat)]);
        const expected = EXPECTED[name]!(h, lat, lon)!;
        if (!(Math.abs(Number(out.trim()) - expected) <= 1e-4 + Math.abs(expected) * 2 ** -22))
          wrong.push({ step: h, lat, lon, file: out.trim(), eccodes: expected });
      }
    }
    expect(wrong).toEqual([]);
  });
});
