/**
 * The model runs a sync reads: where each source publishes a run's steps, when
 * it runs and which steps it writes, in one table. Everything is derived from the configured base
 * URL; no other host is named anywhere a request is made from.
 */
import { SyncConfigError } from './errors.js';

export type SourceName = 'gfs-0p25' | 'ecmwf-ifs-0p25';

export type InventoryKind = 'idx' | 'ecmwf-index';

export interface SourceFacts {
  name: SourceName;
  /** The public archive used when `FIELDCAST_SOURCE_<NAME>_URL` is unset. */
  defaultBaseUrl: string;
  /** Hours (UTC) at which runs start. */
  runHours: readonly number[];
  /** The forecast steps (hours) a run of that hour writes, in order. */
  steps(runHour: number): readonly number[];
  inventory: InventoryKind;
  /** Path of a step's GRIB2 file below the base URL. */
  filePath(runMs: number, step: number): string;
  /** Path of the file's inventory below the base URL. */
  inventoryPath(filePath: string): string;
}

/** `from` to `to` inclusive by `by`. */
function range(from: number, to: number, by: number): number[] {
  return Array.from({ length: Math.floor((to - from) / by) + 1 }, (_, k) => from + k * by);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** YYYYMMDD and HH of a run's start (UTC). */
function runParts(runMs: number): { ymd: string; hh: string } {
  const t = new Date(runMs);
  return { ymd: `${t.getUTCFullYear()}${pad(t.getUTCMonth() + 1, 2)}${pad(t.getUTCDate(), 2)}`, hh: pad(t.getUTCHours(), 2) };
}

// NCEP's GFS 0.25° pressure-grid files: hourly to 120 h, then 3-hourly to 384 h, four runs a day
// (NCEP Central Operations, GFS products, https://www.nco.ncep.noaa.gov/pmb/products/gfs/).
const GFS_STEPS = [...range(0, 120, 1), ...range(123, 384, 3)];

// ECMWF open data, HRES (stream oper): 00 and 12 UTC "0 to 144 by 3, 144 to 240 by 6", 06 and 18 UTC
// "0 to 90 by 3" (ecmwf/ecmwf-opendata README.md, "Time steps", commit a0f3e8d).
const ECMWF_LONG_STEPS = [...range(0, 144, 3), ...range(150, 240, 6)];
const ECMWF_SHORT_STEPS = range(0, 90, 3);

/**
 * From IFS cycle 50r1 (operational 2026-05-12) the 06 and 18 UTC runs are published under stream
 * `oper`; before, under `scda` (ecmwf/ecmwf-opendata client.py `patch_stream` and
 * tests/test_stream.py, commit a0f3e8d).
 */
const IFS_50R1_MS = Date.UTC(2026, 4, 12);

function ecmwfStream(runMs: number): 'oper' | 'scda' {
  const hour = new Date(runMs).getUTCHours();
  return runMs < IFS_50R1_MS && (hour === 6 || hour === 18) ? 'scda' : 'oper';
}

export const SOURCES: Readonly<Record<SourceName, SourceFacts>> = {
  'gfs-0p25': {
    name: 'gfs-0p25',
    defaultBaseUrl: 'https://noaa-gfs-bdp-pds.s3.amazonaws.com',
    runHours: [0, 6, 12, 18],
    steps: () => GFS_STEPS,
    inventory: 'idx',
    filePath(runMs, step) {
      const { ymd, hh } = runParts(runMs);
      return `gfs.${ymd}/${hh}/atmos/gfs.t${hh}z.pgrb2.0p25.f${pad(step, 3)}`;
    },
    inventoryPath: (filePath) => `${filePath}.idx`,
  },
  'ecmwf-ifs-0p25': {
    name: 'ecmwf-ifs-0p25',
    defaultBaseUrl: 'https://data.ecmwf.int/forecasts',
    runHours: [0, 6, 12, 18],
    steps: (runHour) => (runHour === 0 || runHour === 12 ? ECMWF_LONG_STEPS : ECMWF_SHORT_STEPS),
    inventory: 'ecmwf-index',
    // [ROOT]/[yyyymmdd]/[HH]z/[model]/[resol]/[stream]/[yyyymmdd][HH]0000-[step][U]-[stream]-[type].[format]
    // (ECMWF open data: real-time forecasts from IFS and AIFS, "File-naming convention").
    filePath(runMs, step) {
      const { ymd, hh } = runParts(runMs);
      const stream = ecmwfStream(runMs);
      return `${ymd}/${hh}z/ifs/0p25/${stream}/${ymd}${hh}0000-${step}h-${stream}-fc.grib2`;
    },
    inventoryPath: (filePath) => filePath.replace(/\.grib2$/, '.index'),
  },
};

export function isSourceName(name: string): name is SourceName {
  return Object.hasOwn(SOURCES, name);
}

/** `gfs-0p25` -> `FIELDCAST_SOURCE_GFS_0P25_URL`. */
export function sourceUrlVariable(name: SourceName): string {
  return `FIELDCAST_SOURCE_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_URL`;
}

/** The base URL of a source: its environment variable, else the public archive; without a trailing slash. */
export function sourceBaseUrl(name: SourceName, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const variable = sourceUrlVariable(name);
  const given = env[variable]?.trim();
  const raw = given ? given : SOURCES[name].defaultBaseUrl;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SyncConfigError(`${variable} is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SyncConfigError(`${variable} is not an http(s) URL: ${raw}`);
  if (url.search || url.hash) throw new SyncConfigError(`${variable} has a query or fragment: ${raw}`);
  return url.href.replace(/\/+$/, '');
}

/** The run starting at `runMs`, checked against the source's run hours. */
export function checkRun(source: SourceFacts, runMs: number): void {
  const t = new Date(runMs);
  if (
    !Number.isFinite(runMs) ||
    t.getUTCMinutes() ||
    t.getUTCSeconds() ||
    t.getUTCMilliseconds() ||
    !source.runHours.includes(t.getUTCHours())
  )
    throw new SyncConfigError(`${source.name} has no run at ${Number.isFinite(runMs) ? t.toISOString() : runMs}`);
}

/** URLs of one step of a run: its GRIB2 file and its inventory. */
export function stepUrls(source: SourceFacts, baseUrl: string, runMs: number, step: number): { file: string; inventory: string } {
  checkRun(source, runMs);
  if (!source.steps(new Date(runMs).getUTCHours()).includes(step))
    throw new SyncConfigError(`${source.name} writes no step ${step} h for the ${pad(new Date(runMs).getUTCHours(), 2)}Z run`);
  const path = source.filePath(runMs, step);
  return { file: `${baseUrl}/${path}`, inventory: `${baseUrl}/${source.inventoryPath(path)}` };
}
