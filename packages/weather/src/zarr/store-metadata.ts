/**
 * What opening a store learns from its metadata (docs/decisions/0015-zarr-reading-rules.md):
 * its arrays (listed from consolidated metadata or the directory), the latitude and longitude
 * coordinates and the regular grid they make (CF 4.1, 4.2), its time axes (CF 4.4), and a reader
 * for each data array on [time,] lat, lon.
 */
import * as zarr from 'zarrita';
import type { GridSpec, TimeCell } from '../grid/grid-source.js';
import { type AnyArray, type ArrayReader, makeReader, type TimeAxis } from './array-reader.js';
import { type Attrs, num, str } from './attribute-values.js';
import { constantTimeCell, decodeCfTimes, parseCfTimeUnits, regularAxis } from './cf-time.js';
import { FileStore } from './file-store.js';
import { FRAMES_OF, STEP_ATTR } from './layout.js';
import { isRangeReadable, type RangeReadable, seriesLayout } from './series-ranges.js';

const LAT_NAMES = new Set(['lat', 'latitude', 'y', 'nav_lat']);
const LON_NAMES = new Set(['lon', 'longitude', 'x', 'nav_lon']);

function isLatitude(name: string, attrs: Attrs): boolean {
  return attrs.standard_name === 'latitude' || attrs.units === 'degrees_north' || LAT_NAMES.has(name.toLowerCase());
}

function isLongitude(name: string, attrs: Attrs): boolean {
  return attrs.standard_name === 'longitude' || attrs.units === 'degrees_east' || LON_NAMES.has(name.toLowerCase());
}

function isTime(name: string, attrs: Attrs): boolean {
  return attrs.standard_name === 'time' || attrs.axis === 'T' || (name === 'time' && /\bsince\b/.test(str(attrs.units)));
}

async function readAll(arr: AnyArray): Promise<number[]> {
  const { data } = await zarr.get(arr);
  return Array.from(data as ArrayLike<number | bigint>, (v) => Number(v));
}

/** A [n, 2] array's rows in turn, whatever its order in memory. */
async function readPairs(arr: AnyArray): Promise<number[]> {
  const { data, stride } = await zarr.get(arr);
  const values = data as ArrayLike<number | bigint>;
  const [s0, s1] = stride as [number, number];
  return Array.from({ length: arr.shape[0]! * 2 }, (_, k) => Number(values[Math.floor(k / 2) * s0 + (k % 2) * s1]!));
}

/**
 * The axis on which a synced run's store and a source's analysis hold their mean rates, and the
 * cell of its stamps: the mean over the hour that ends at each
 * (docs/decisions/0250-synced-runs-staged-then-published.md, "Hourly axes"). The sync writes that
 * cell as the axis' bounds (CF 1.11 §7.1); stores written before it carry only the axis name, so
 * for them the name states the cell (docs/decisions/0379-time-cells-of-mean-rates.md).
 */
export const SYNCED_MEAN_AXIS = 'time_mean_1h';
export const SYNCED_MEAN_CELL: TimeCell = [-3_600_000, 0];

/**
 * The cell of a time coordinate's stamps (grid-source.ts TimeCell): from its bounds (CF 1.11
 * §7.1, the `bounds` attribute naming a [time, 2] array in the coordinate's units) where they
 * are the same offsets at every stamp; else, on a synced store written without bounds, the hour
 * ending at the stamp (SYNCED_MEAN_AXIS).
 */
async function timeCellOfAxis(
  name: string,
  attrs: Attrs,
  timesMs: number[],
  enc: ReturnType<typeof parseCfTimeUnits>,
  arrays: ReadonlyMap<string, AnyArray>,
): Promise<TimeCell | undefined> {
  const bounds = arrays.get(str(attrs.bounds));
  if (bounds && bounds.shape.length === 2 && bounds.shape[0] === timesMs.length && bounds.shape[1] === 2) {
    const cell = constantTimeCell(timesMs, decodeCfTimes(await readPairs(bounds), enc));
    if (cell) return cell;
  }
  return name === SYNCED_MEAN_AXIS ? SYNCED_MEAN_CELL : undefined;
}

/** Regular spacing check for cell-centre coordinates; returns [first, step]. */
function regularCoordinate(name: string, values: number[]): [number, number] {
  const first = values[0];
  if (first === undefined) throw new Error(`coordinate ${name} is empty`);
  if (values.length === 1) return [first, 1];
  const step = (values[values.length - 1]! - first) / (values.length - 1);
  const tol = Math.abs(step) * 1e-4;
  for (let i = 1; i < values.length; i++) {
    if (Math.abs(values[i]! - (first + i * step)) > tol) {
      throw new Error(`coordinate ${name} is not regularly spaced (GridSource needs a regular grid)`);
    }
  }
  if (step <= 0) throw new Error(`coordinate ${name} must be ascending`);
  return [first, step];
}

function storeFor(location: string | URL, fetchOptions?: RequestInit): zarr.AsyncReadable & { listArrays?: () => Promise<string[]> } {
  const href = location instanceof URL ? location.href : location;
  if (/^https?:\/\//i.test(href)) {
    return new zarr.FetchStore(href, fetchOptions ? { overrides: fetchOptions } : {});
  }
  return new FileStore(location instanceof URL ? location.pathname : location);
}

async function listArrayNames(store: zarr.AsyncReadable, raw: { listArrays?: () => Promise<string[]> }): Promise<string[]> {
  if ('contents' in store && typeof store.contents === 'function') {
    const contents = (store as zarr.Listable<zarr.AsyncReadable>).contents();
    return contents
      .filter((c) => c.kind === 'array' && c.path.split('/').length === 2)
      .map((c) => c.path.slice(1))
      .sort();
  }
  if (raw.listArrays) return raw.listArrays();
  throw new Error('the store has no consolidated metadata (.zmetadata) and cannot be listed; consolidate it (xarray: consolidated=True)');
}

/** A store's grid and readers, as ZarrSource.open finds them. */
export interface StoreMetadata {
  /** where the store was opened from: a directory path or an http(s) URL */
  where: string;
  rootAttrs: Attrs;
  grid: GridSpec;
  lats: Float64Array;
  lons: Float64Array;
  readers: ArrayReader[];
  /** the raw store, when it serves byte ranges (point series of uncompressed stores) */
  ranges: (RangeReadable & { close?: () => Promise<void> }) | null;
}

/**
 * A frame copy stands for its array only where it holds the same steps on the same cells in the
 * same raw values: one step a chunk, the array's time axis and shape, its packing and missing values.
 */
function sameFrames(of: ArrayReader, copy: ArrayReader): boolean {
  const a = of.array;
  const b = copy.array;
  return (
    a.shape.length === 3 &&
    b.chunks[0] === 1 &&
    JSON.stringify(a.shape) === JSON.stringify(b.shape) &&
    a.dtype === b.dtype &&
    JSON.stringify(of.time) === JSON.stringify(copy.time) &&
    of.scale === copy.scale &&
    of.offset === copy.offset &&
    JSON.stringify(of.missing) === JSON.stringify(copy.missing) &&
    of.validMin === copy.validMin &&
    of.validMax === copy.validMax
  );
}

/** Reads a store's metadata: a directory path, a file: URL, or an http(s) URL. */
export async function readStoreMetadata(location: string | URL, fetchOptions?: RequestInit): Promise<StoreMetadata> {
  const raw = storeFor(location, fetchOptions);
  const store = await zarr.withMaybeConsolidatedMetadata(raw);
  const names = await listArrayNames(store, raw);
  const root = zarr.root(store);
  const rootAttrs: Attrs = await zarr
    .open(root, { kind: 'group' })
    .then((g) => g.attrs as Attrs)
    .catch(() => ({}));
  const arrays = new Map<string, AnyArray>();
  for (const name of names) arrays.set(name, await zarr.open(root.resolve(name), { kind: 'array' }));

  const dimsOf = (name: string, a: AnyArray): string[] =>
    a.dimensionNames ?? ((a.attrs as Attrs)['_ARRAY_DIMENSIONS'] as string[] | undefined) ?? (a.shape.length === 1 ? [name] : []);
  const oneD = [...arrays].filter(([n, a]) => a.shape.length === 1 && dimsOf(n, a)[0] === n);
  const latEntry = oneD.find(([n, a]) => isLatitude(n, a.attrs as Attrs));
  const lonEntry = oneD.find(([n, a]) => isLongitude(n, a.attrs as Attrs));
  const where = location instanceof URL ? location.href : location;
  if (!latEntry || !lonEntry) throw new Error(`${where}: no latitude/longitude coordinate arrays (CF 4.1, 4.2)`);
  const [latName, latArr] = latEntry;
  const [lonName, lonArr] = lonEntry;
  const lats = Float64Array.from(await readAll(latArr));
  const lons = Float64Array.from(await readAll(lonArr));
  const [lat0, dLat] = regularCoordinate(latName, Array.from(lats));
  const [lon0, dLon] = regularCoordinate(lonName, Array.from(lons));
  const grid: GridSpec = { lat0, lon0, dLat, dLon, nLat: lats.length, nLon: lons.length };

  const timeAxes = new Map<string, TimeAxis>();
  for (const [n, a] of oneD) {
    const attrs = a.attrs as Attrs;
    if (n === latName || n === lonName || !isTime(n, attrs)) continue;
    const enc = parseCfTimeUnits(str(attrs.units), str(attrs.calendar) || undefined);
    const times = decodeCfTimes(await readAll(a), enc);
    const reg = regularAxis(times);
    if (!reg) throw new Error(`${where}: time axis ${n} is not regular (GridSource needs start + i*step)`);
    const stepMs = times.length === 1 ? (num(attrs[STEP_ATTR]) ?? 0) : reg.stepMs;
    const cell = await timeCellOfAxis(n, attrs, times, enc, arrays);
    timeAxes.set(n, { name: n, startMs: reg.startMs, stepMs, length: times.length, ...(cell ? { cell } : {}) });
  }

  const readers: ArrayReader[] = [];
  const frameCopies: ArrayReader[] = [];
  for (const [name, array] of arrays) {
    const dims = dimsOf(name, array);
    const spatial = dims.length >= 2 && dims[dims.length - 2] === latName && dims[dims.length - 1] === lonName;
    if (!spatial) continue;
    let time: TimeAxis | null = null;
    if (dims.length === 3) {
      time = timeAxes.get(dims[0]!) ?? null;
      if (!time) continue;
    } else if (dims.length !== 2) {
      continue;
    }
    const reader = makeReader(name, array, time, rootAttrs);
    if (time && isRangeReadable(raw)) {
      // The v2 metadata as written (consolidated or not); zarrita's Array keeps only its v3 form.
      const zarray = await store.get(`/${name}/.zarray`).then(
        (b) => (b ? (JSON.parse(new TextDecoder().decode(b)) as Attrs) : null),
        () => null,
      );
      reader.series = zarray ? seriesLayout(name, zarray) : null;
    }
    (str((array.attrs as Attrs)[FRAMES_OF]) ? frameCopies : readers).push(reader);
  }
  for (const copy of frameCopies) {
    const of = readers.find((r) => r.name === str((copy.array.attrs as Attrs)[FRAMES_OF]));
    if (of && sameFrames(of, copy)) of.frames = copy;
  }
  // Exact names first, so a store holding both `air_temperature` and `t2m` serves the former.
  readers.sort((a, b) => Number(b.variable === b.name) - Number(a.variable === a.name) || a.name.localeCompare(b.name));
  return { where, rootAttrs, grid, lats, lons, readers, ranges: isRangeReadable(raw) ? raw : null };
}
