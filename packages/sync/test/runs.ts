/**
 * Model runs written for the tests in each source's own layout, from analytic fields of latitude,
 * longitude and hours since the run, with the inventories each source writes beside its files
 * (GFS: wgrib2's `.idx`; ECMWF: JSON lines `.index`). GRIB2 messages come from grib2's test encoder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type GridSpec, type MessageSpec, encodeMessage, pointsInScanningOrder } from '../../grib2/test/encode.js';

/** The analytic weather, in the units the sources write. */
export const analytic = {
  temperatureK: (lat: number, lon: number, h: number) => 283.15 + 0.8 * (lat - 45) + 0.5 * lon + 0.25 * h,
  dewpointK: (lat: number, lon: number, h: number) => analytic.temperatureK(lat, lon, h) - 5 - 0.1 * h,
  u10: (lat: number, _lon: number, h: number) => 3 + 0.2 * h + (lat - 45),
  v10: (_lat: number, lon: number) => -2 + 0.5 * lon,
  pressurePa: (lat: number, _lon: number, h: number) => 98_000 + 100 * (lat - 45) - 10 * h,
  /** Shortwave flux a + b h (W m-2) and precipitation rate c + d h (mm h-1), linear in time so their integrals are exact. */
  shortwave: (_lat: number, lon: number) => ({ a: 200 + 10 * lon, b: 5 }),
  precipitation: (lat: number) => ({ c: 0.5 + 0.1 * (lat - 45), d: 0.05 }),
};

/** Analytic weather in the units the sources write: `analytic`'s shape. */
export type AnalyticWeather = typeof analytic;

/**
 * Analytic weather within what weather reaches (PHYSICAL_BOUNDS, packages/weather) everywhere on
 * the globe for two days of steps, for the benches' global grids: `analytic` is linear around
 * 46 N 10 E and leaves those bounds far from it (above 65 °C at the North Pole), so a sync refuses
 * its steps there. Its temperature varies over a few degrees as a model's does with the ground, so
 * a tile of it is not one smooth ramp (which deflate, the tile benches' floor, compresses far
 * faster than a tile of weather).
 */
export const globalWeather: AnalyticWeather = {
  temperatureK: (lat, lon, h) =>
    300 -
    0.5 * Math.abs(lat) +
    0.02 * (lon - 180) +
    0.1 * h +
    3 * Math.sin(1.7 * lat) * Math.cos(1.3 * lon) +
    1.5 * Math.sin(5.3 * lat + 4.1 * lon),
  dewpointK: (lat, lon, h) => globalWeather.temperatureK(lat, lon, h) - 5 - 0.1 * h,
  u10: (lat, _lon, h) => 3 + 0.05 * h + lat / 10,
  v10: (_lat, lon) => -2 + lon / 100,
  pressurePa: (lat, _lon, h) => 100_000 + 20 * lat - 10 * h,
  shortwave: (_lat, lon) => ({ a: 200 + lon / 2, b: 2 }),
  precipitation: (lat) => ({ c: 0.5 + 0.005 * (lat + 90), d: 0.02 }),
};

/**
 * Precipitation types by grid column (the column's index mod 8), in each source's encoding, and
 * the catalog's code (packages/weather PRECIPITATION_TYPE: 0 none, 1 rain, 2 snow, 3 freezing rain,
 * 4 ice pellets) each must give. GFS: the categorical fields that are 1 (NCEP table 4.2-0-1
 * 192-195), several at once resolved by NCEP's precedence (freezing rain, snow, ice pellets, rain).
 * ECMWF: ptype, WMO code table 4.201.
 */
export const GFS_CATEGORY_COLUMNS: ReadonlyArray<{ yes: readonly string[]; code: number }> = [
  { yes: [], code: 0 },
  { yes: ['CRAIN'], code: 1 },
  { yes: ['CSNOW'], code: 2 },
  { yes: ['CFRZR'], code: 3 },
  { yes: ['CICEP'], code: 4 },
  { yes: ['CRAIN', 'CSNOW'], code: 2 },
  { yes: ['CSNOW', 'CFRZR'], code: 3 },
  { yes: ['CRAIN', 'CICEP'], code: 4 },
];
export const ECMWF_PTYPE_COLUMNS: ReadonlyArray<{ ptype: number; code: number }> = [
  { ptype: 0, code: 0 },
  { ptype: 1, code: 1 },
  { ptype: 3, code: 3 },
  { ptype: 5, code: 2 },
  { ptype: 6, code: 2 },
  { ptype: 7, code: 2 },
  { ptype: 8, code: 4 },
  { ptype: 12, code: 3 },
];
/** The fixtures' column of a longitude on `grid`, mod 8. */
export const columnOf = (grid: GridSpec, lon: number) => ((Math.round((lon - grid.lon1) / grid.dLon) % 8) + 8) % 8;

/** ∫ (a + b t) dt over [t0, t1] (hours). */
export const integral = ({ a, b }: { a: number; b: number }, t0: number, t1: number) => a * (t1 - t0) + (b / 2) * (t1 * t1 - t0 * t0);

export const GFS_GRID: GridSpec = { ni: 8, nj: 5, lat1: 46, lon1: 10, dLat: 0.25, dLon: 0.25 };
export const ECMWF_GRID: GridSpec = { ni: 8, nj: 5, lat1: 46, lon1: -5, dLat: 0.25, dLon: 0.25 };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const ymd = (t: Date) => `${t.getUTCFullYear()}${pad(t.getUTCMonth() + 1)}${pad(t.getUTCDate())}`;

function field(grid: GridSpec, f: (lat: number, lon: number) => number): Float64Array {
  const { lat, lon } = pointsInScanningOrder(grid);
  return Float64Array.from(lat, (la, k) => f(la, lon[k]!));
}

interface Message {
  spec: Omit<MessageSpec, 'grid' | 'referenceTimeMs' | 'forecastHours'>;
  values: (lat: number, lon: number) => number;
  /** GFS: `VAR:LEVEL:FORECAST`; ECMWF: the `.index` keys. */
  idx?: string;
  index?: Record<string, string>;
}

function writeFile(
  path: string,
  grid: GridSpec,
  runMs: number,
  step: number,
  messages: Message[],
): { offsets: number[]; lengths: number[] } {
  const bytes = messages.map((m) => encodeMessage(field(grid, m.values), { ...m.spec, grid, referenceTimeMs: runMs, forecastHours: step }));
  const offsets: number[] = [];
  let at = 0;
  for (const b of bytes) {
    offsets.push(at);
    at += b.length;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.concat(bytes));
  return { offsets, lengths: bytes.map((b) => b.length) };
}

const simple = (decimal: number) => ({ template: 0 as const, decimal });

/** NCEP GRIB2 table 4.2-0-1's local numbers of the categorical precipitation types. */
const CATEGORY_NUMBER = { CRAIN: 192, CFRZR: 193, CICEP: 194, CSNOW: 195 } as const;

/** GFS restarts its averages and accumulations every 6 hours. */
export const gfsIntervalStart = (h: number) => 6 * Math.floor((h - 1) / 6);

export function gfsPath(runMs: number, step: number): string {
  const t = new Date(runMs);
  return `gfs.${ymd(t)}/${pad(t.getUTCHours())}/atmos/gfs.t${pad(t.getUTCHours())}z.pgrb2.0p25.f${pad(step, 3)}`;
}

/** One GFS step of `weather`: needed messages among unneeded ones, in NCEP's parameter numbers. */
export function writeGfsStep(
  root: string,
  runMs: number,
  step: number,
  grid: GridSpec = GFS_GRID,
  weather: AnalyticWeather = analytic,
): string {
  const fcst = step === 0 ? 'anl' : `${step} hour fcst`;
  const t0 = gfsIntervalStart(step);
  const over = (kind: string) => `${t0}-${step} hour ${kind} fcst`;
  const stat = (process: number) => ({ process, rangeHours: step - t0 });
  const height = (m: number) => ({ type: 103, value: m });
  const messages: Message[] = [
    {
      idx: `TMP:2 m above ground:${fcst}`,
      spec: { packing: { template: 3, decimal: 2, order: 2 }, category: 0, number: 0, surface: height(2) },
      values: (la, lo) => weather.temperatureK(la, lo, step),
    },
    {
      idx: `HGT:500 mb:${fcst}`,
      spec: { packing: simple(0), category: 3, number: 5, surface: { type: 100, value: 50000 } },
      values: (la) => 5500 + la,
    },
    {
      idx: `DPT:2 m above ground:${fcst}`,
      spec: { packing: simple(2), category: 0, number: 6, surface: height(2) },
      values: (la, lo) => weather.dewpointK(la, lo, step),
    },
    {
      idx: `UGRD:10 m above ground:${fcst}`,
      spec: { packing: simple(3), category: 2, number: 2, surface: height(10) },
      values: (la, lo) => weather.u10(la, lo, step),
    },
    {
      idx: `VGRD:10 m above ground:${fcst}`,
      spec: { packing: simple(3), category: 2, number: 3, surface: height(10) },
      values: (la, lo) => weather.v10(la, lo),
    },
    {
      idx: `PRES:surface:${fcst}`,
      spec: { packing: simple(0), category: 3, number: 0, surface: { type: 1, value: 0 } },
      values: (la, lo) => weather.pressurePa(la, lo, step),
    },
    { idx: `RH:2 m above ground:${fcst}`, spec: { packing: simple(1), category: 1, number: 1, surface: height(2) }, values: () => 60 },
  ];
  if (step > 0) {
    messages.push(
      {
        idx: `DSWRF:surface:${over('ave')}`,
        spec: { packing: simple(3), category: 4, number: 7, surface: { type: 1, value: 0 }, statistic: stat(0) },
        values: (la, lo) => integral(weather.shortwave(la, lo), t0, step) / (step - t0),
      },
      {
        idx: `APCP:surface:${over('acc')}`,
        spec: { packing: simple(4), category: 1, number: 8, surface: { type: 1, value: 0 }, statistic: stat(1) },
        values: (la) => integral({ a: weather.precipitation(la).c, b: weather.precipitation(la).d }, t0, step),
      },
      // NCEP's order: the categorical types at the step, then their averages over the interval.
      ...(['CSNOW', 'CICEP', 'CFRZR', 'CRAIN'] as const).map((name): Message => ({
        idx: `${name}:surface:${fcst}`,
        spec: { packing: simple(0), category: 1, number: CATEGORY_NUMBER[name], surface: { type: 1, value: 0 } },
        values: (_la, lo) => (GFS_CATEGORY_COLUMNS[columnOf(grid, lo)]!.yes.includes(name) ? 1 : 0),
      })),
      ...(['CSNOW', 'CICEP', 'CFRZR', 'CRAIN'] as const).map((name): Message => ({
        idx: `${name}:surface:${over('ave')}`,
        spec: { packing: simple(2), category: 1, number: CATEGORY_NUMBER[name], surface: { type: 1, value: 0 }, statistic: stat(0) },
        values: () => 0.5,
      })),
      {
        idx: `TMAX:2 m above ground:${over('max')}`,
        spec: { packing: simple(2), category: 0, number: 4, surface: height(2), statistic: stat(2) },
        values: (la, lo) => weather.temperatureK(la, lo, step),
      },
      {
        idx: `TMIN:2 m above ground:${over('min')}`,
        spec: { packing: simple(2), category: 0, number: 5, surface: height(2), statistic: stat(3) },
        values: (la, lo) => weather.temperatureK(la, lo, t0),
      },
    );
  }
  const path = join(root, gfsPath(runMs, step));
  const { offsets } = writeFile(path, grid, runMs, step, messages);
  const t = new Date(runMs);
  const d = `d=${ymd(t)}${pad(t.getUTCHours())}`;
  writeFileSync(`${path}.idx`, messages.map((m, k) => `${k + 1}:${offsets[k]}:${d}:${m.idx}:\n`).join(''));
  return path;
}

export function ecmwfPath(runMs: number, step: number): string {
  const t = new Date(runMs);
  const hh = pad(t.getUTCHours());
  return `${ymd(t)}/${hh}z/ifs/0p25/oper/${ymd(t)}${hh}0000-${step}h-oper-fc.grib2`;
}

/**
 * One ECMWF step; ssrd and tp accumulated from the start of the forecast, extremes over the last
 * 3 hours; ptype by column (ECMWF_PTYPE_COLUMNS), 0 everywhere at step 0, or `ptype` where given.
 */
export function writeEcmwfStep(root: string, runMs: number, step: number, ptype?: (lat: number, lon: number) => number): string {
  const height = (m: number) => ({ type: 103, value: m });
  const sfc = { type: 1, value: 0 };
  const fromStart = { process: 1, rangeHours: step };
  const messages: Message[] = [
    {
      index: { param: 'msl' },
      spec: { packing: simple(0), category: 3, number: 1, surface: { type: 101, value: 0 } },
      values: () => 101_325,
    },
    {
      index: { param: '2t' },
      spec: { packing: simple(2), category: 0, number: 0, surface: height(2) },
      values: (la, lo) => analytic.temperatureK(la, lo, step),
    },
    {
      index: { param: '2d' },
      spec: { packing: simple(2), category: 0, number: 6, surface: height(2) },
      values: (la, lo) => analytic.dewpointK(la, lo, step),
    },
    {
      index: { param: '10u' },
      spec: { packing: simple(3), category: 2, number: 2, surface: height(10) },
      values: (la, lo) => analytic.u10(la, lo, step),
    },
    {
      index: { param: '10v' },
      spec: { packing: simple(3), category: 2, number: 3, surface: height(10) },
      values: (la, lo) => analytic.v10(la, lo),
    },
    { index: { param: 'tcwv' }, spec: { packing: simple(1), category: 1, number: 64, surface: sfc }, values: () => 20 },
    {
      index: { param: 'sp' },
      spec: { packing: simple(0), category: 3, number: 0, surface: sfc },
      values: (la, lo) => analytic.pressurePa(la, lo, step),
    },
    {
      index: { param: 'ssrd', step: `0-${step}` },
      spec: { packing: simple(0), category: 4, number: 7, surface: sfc, statistic: fromStart },
      values: (la, lo) => integral(analytic.shortwave(la, lo), 0, step) * 3600,
    },
    {
      index: { param: 'ptype' },
      spec: { packing: simple(0), category: 1, number: 19, surface: sfc },
      values: ptype ?? ((_la, lo) => (step === 0 ? 0 : ECMWF_PTYPE_COLUMNS[columnOf(ECMWF_GRID, lo)]!.ptype)),
    },
    {
      index: { param: 'tp', step: `0-${step}` },
      spec: { packing: simple(8), category: 1, number: 193, surface: sfc, statistic: fromStart },
      values: (la) => integral({ a: analytic.precipitation(la).c, b: analytic.precipitation(la).d }, 0, step) / 1000,
    },
  ];
  if (step > 0) {
    const last3 = { rangeHours: Math.min(3, step) };
    messages.push(
      {
        index: { param: 'mx2t3', step: `${step - last3.rangeHours}-${step}` },
        spec: { packing: simple(2), category: 0, number: 0, surface: height(2), statistic: { process: 2, ...last3 } },
        values: (la, lo) => analytic.temperatureK(la, lo, step),
      },
      {
        index: { param: 'mn2t3', step: `${step - last3.rangeHours}-${step}` },
        spec: { packing: simple(2), category: 0, number: 0, surface: height(2), statistic: { process: 3, ...last3 } },
        values: (la, lo) => analytic.temperatureK(la, lo, step - last3.rangeHours),
      },
    );
  }
  const path = join(root, ecmwfPath(runMs, step));
  const { offsets, lengths } = writeFile(path, ECMWF_GRID, runMs, step, messages);
  const t = new Date(runMs);
  const lines = messages.map((m, k) =>
    JSON.stringify({
      domain: 'g',
      date: ymd(t),
      time: `${pad(t.getUTCHours())}00`,
      expver: '0001',
      class: 'od',
      type: 'fc',
      stream: 'oper',
      step: String(step),
      levtype: 'sfc',
      ...m.index,
      _offset: offsets[k],
      _length: lengths[k],
    }),
  );
  writeFileSync(path.replace(/\.grib2$/, '.index'), lines.map((l) => `${l}\n`).join(''));
  return path;
}
