/**
 * What the synced-eccodes tests share: runs of each source written by ecCodes in the source's own
 * layout (grib2_eccodes.py), ecCodes' reading of them, and what the interface must serve of them
 * (docs/decisions/0230-sync-sources-and-variables.md, 0250, 0379).
 */
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StartedFleet } from '../../packages/fleet/src/start.js';
import { findPython } from './python.js';

const SCRIPT = join(import.meta.dirname, 'grib2_eccodes.py');
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** Today at 00Z. */
export const TODAY = Math.floor(Date.now() / DAY) * DAY;
/** FAO-56 eq. 47: the 2 m wind from the 10 m one. */
const U2_OVER_U10 = 4.87 / Math.log(67.8 * 10 - 5.42);
export const iso = (ms: number) => new Date(ms).toISOString();
/** As the platform and transfer areas write a time. */
export const isoShort = (ms: number) => iso(ms).replace('.000Z', 'Z');
export const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
export const range = (from: number, to: number, by: number) =>
  Array.from({ length: Math.floor((to - from) / by) + 1 }, (_, k) => from + k * by);

export const run = async (cmd: string, args: string[]) =>
  (await promisify(execFile)(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 })).stdout;

/** A python with ecCodes, numpy, xarray and netCDF4, and GDAL's gdallocationinfo; fails naming what is missing. */
export function requireTools(): string {
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

export interface EccodesMessage {
  keys: Record<string, number | string>;
  values: Array<number | null>;
  latitudes: number[];
  longitudes: number[];
}

/** A regular grid as the source's messages give it: rows north to south from lat1, columns east from lon1 (the source's longitudes). */
export interface Grid {
  ni: number;
  nj: number;
  lat1: number;
  lon1: number;
  dlat: number;
  dlon: number;
}

export type Point = readonly [lat: number, lon: number];

/** The weather the tests compare, each a function of ecCodes' values at a step. */
export type Parameter = 't' | 'td' | 'u' | 'v' | 'p' | 'rain' | 'sun';

/** One run of a synced source as ecCodes writes it, and where it is looked at. */
export interface SourceRun {
  source: 'gfs-0p25' | 'ecmwf-ifs-0p25';
  /** grib2_eccodes.py's writer. */
  writer: 'gfs' | 'ecmwf';
  runMs: number;
  /** The steps written and synced, in hours. */
  steps: number[];
  grid: Grid;
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
}

/** GFS restarts its statistics every 6 hours: 0-1 ... 0-6, 6-7 ... */
const gfsIntervalStart = (h: number) => 6 * Math.floor((h - 1) / 6);
const hh = (runMs: number) => String(new Date(runMs).getUTCHours()).padStart(2, '0');

/**
 * A GFS run as NOAA publishes it: NCEP's parameter numbers, wgrib2's `.idx`, longitudes 0..360,
 * statistics over intervals restarted every 6 hours, hourly steps; over Iowa in GFS's longitudes,
 * 265.5 to 267.25 (-94.5 to -92.75), 42.5 down to 41.5.
 */
export const gfsRun = (runMs: number, steps: number[]): SourceRun => ({
  source: 'gfs-0p25',
  writer: 'gfs',
  runMs,
  steps,
  grid: { ni: 8, nj: 5, lat1: 42.5, lon1: 265.5, dlat: 0.25, dlon: 0.25 },
  stepOf: (file) => (file.endsWith('.idx') ? null : Number(/\.f(\d{3})$/.exec(file)![1])),
  folder: (archive) => join(archive, `gfs.${ymd(runMs)}`, hh(runMs), 'atmos'),
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
});

/**
 * An ECMWF open data HRES run: ECMWF's shortNames in a JSON lines `.index`, CCSDS packing, `tp` (m)
 * and `ssrd` (J m-2) accumulated from the start, steps every 3 hours then every 6; a box of
 * ECMWF's global grid from its first column (180, the antimeridian, -180 in the API), near Fiji.
 */
export const ecmwfRun = (runMs: number, steps: number[]): SourceRun => ({
  source: 'ecmwf-ifs-0p25',
  writer: 'ecmwf',
  runMs,
  steps,
  grid: { ni: 8, nj: 5, lat1: -16.5, lon1: 180, dlat: 0.25, dlon: 0.25 },
  stepOf: (file) => (file.endsWith('.index') ? null : Number(/-(\d+)h-oper-fc\.grib2$/.exec(file)![1])),
  folder: (archive) => join(archive, ymd(runMs), `${hh(runMs)}z`, 'ifs', '0p25', 'oper'),
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
});

/** ecCodes' messages of a run, by step and parameter key. */
export type Reference = Map<number, Map<string, EccodesMessage>>;

/** Writes the run's steps below `archive` with ecCodes, and reads them back. */
export function writeRun(python: string, c: SourceRun, archive: string): Reference {
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
  return new Map(files.map((f) => [c.stepOf(f)!, new Map(read[join(folder, f)]!.map((m) => [c.keyOf(m), m]))]));
}

/** ecCodes' value of a message at a grid point given in the API's longitudes. */
export function valueAt(m: EccodesMessage, lat: number, lon: number): number {
  // The sources' longitudes start east of 180 here (GFS 0..360, ECMWF's grid from 180): -93.6 is 266.4.
  const east = (lon + 360) % 360;
  const k = m.latitudes.findIndex((la, i) => Math.abs(la - lat) < 1e-6 && Math.abs(m.longitudes[i]! - east) < 1e-6);
  if (k < 0) throw new Error(`${lat}, ${lon} is no grid point of ecCodes' ${String(m.keys.shortName)}`);
  return m.values[k]!;
}

export type Expected = (h: number, lat: number, lon: number) => number | null;

/**
 * What the interface serves of each variable at a grid point `h` hours into the run, from ecCodes'
 * values. Instants: the step's value, linear in time between steps more than an hour apart.
 * Rates: the mean over the hour ending at `h` (docs/decisions/0379), which is the mean over the
 * step interval holding that hour (0250): the accumulation at its end less the one at its start
 * where both run from one start, or the accumulation itself when its interval starts at the
 * interval's start (GFS's 6-hourly restarts, or the first step), over the hours between; floored
 * at 0 (0230). Null at the run's start, where a rate covers no time.
 */
export function expectations(c: SourceRun, steps: Reference): Record<string, Expected> {
  const at = (step: number, parameter: Parameter, lat: number, lon: number): number => {
    const m = steps.get(step)?.get(c.keys[parameter]);
    if (!m) throw new Error(`ecCodes read no ${c.keys[parameter]} at step ${step} of ${c.source}`);
    return valueAt(m, lat, lon);
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
export function bilinear(c: SourceRun, at: (lat: number, lon: number) => number | null, lat: number, lon: number): number | null {
  const d = c.grid.dlat;
  const [la0, lo0] = [Math.floor(lat / d) * d, Math.floor(lon / d) * d];
  const [fy, fx] = [(lat - la0) / d, (lon - lo0) / d];
  const v = [at(la0, lo0), at(la0, lo0 + d), at(la0 + d, lo0), at(la0 + d, lo0 + d)];
  if (v.some((x) => x === null)) return null;
  const [v00, v01, v10, v11] = v as number[];
  return (1 - fy) * ((1 - fx) * v00! + fx * v01!) + fy * ((1 - fx) * v10! + fx * v11!);
}

/** Served at two decimals (docs/decisions/0009): half a hundredth, and float32's rounding (`slack` more for a rate). */
export const closeServed = (served: number | null, expected: number | null, slack = 0) =>
  expected === null ? served === null : served !== null && Math.abs(served - expected) <= 0.005 + 1e-4 + slack;
export const RATES = new Set(['precipitationRate', 'shortwaveRadiation']);
/** As a file holds it: float32. */
export const closeStored = (stored: number, expected: number) => Math.abs(stored - expected) <= 1e-4 + Math.abs(expected) * 2 ** -22;

interface VariableSeries {
  series: Array<{ validTime: string; value: number | null }>;
  unit: { label: string };
}

/** The variables the model area serves of a synced run; the dewpoint follows its restricted product, not granted to the demo account (docs/decisions/0429). */
const UNITS = { temperature: '°C', surfacePressure: 'kPa', windSpeed: 'm/s', precipitationRate: 'mm/h', shortwaveRadiation: 'W/m²' };

/**
 * The model area's latest forecast of the run's source at (lat, lon) is the run: every step to the
 * last at run + step, each variable in the interface's units, of ecCodes' values (bilinear between
 * grid points when `between`).
 */
export async function expectLatestForecast(
  c: SourceRun,
  reference: Reference,
  get: <T>(area: string, path: string) => Promise<T>,
  lat: number,
  lon: number,
  between: boolean,
): Promise<void> {
  const expected = expectations(c, reference);
  const latest = await get<{ variables: Record<string, VariableSeries> }>(
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
      return closeServed(p.value, value, RATES.has(name) ? c.rateSlack : 0) ? [] : [{ name, step: h, served: p.value, eccodes: value }];
    });
    expect(wrong).toEqual([]);
  }
}

/** A started fleet's areas, asked as its demo application. */
export function fleetApi(fleet: () => StartedFleet) {
  const url = (area: string) => fleet().fleet.services.find((s) => s.area === area)!.url;
  const auth = () => `Basic ${Buffer.from(`${fleet().demo!.applicationId}:${fleet().demo!.applicationKey}`).toString('base64')}`;
  /** The answer to GET `path` of an area, which must be 200. */
  const get = async <T>(area: string, path: string): Promise<T> => {
    const res = await fetch(`${url(area)}${path}`, { headers: { Authorization: auth() } });
    expect([path, res.status]).toEqual([path, 200]);
    return (await res.json()) as T;
  };
  return { url, auth, get };
}
