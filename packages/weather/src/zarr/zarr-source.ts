/**
 * ZarrSource: a GridSource over a Zarr store on local disk or HTTP (docs/architecture.md §6).
 *
 * Reads what Fieldcast's writer produces (Zarr v2, xarray conventions) and, as far as the
 * contract allows, stores written by xarray: v2 or v3 (zarrita reads both), dimension names
 * from `_ARRAY_DIMENSIONS` (v2) or `dimension_names` (v3), CF packing (`scale_factor`,
 * `add_offset`, CF 8.1), missing values from the array fill value, `_FillValue` and
 * `missing_value` (CF 2.5.1), units converted to the contract's on read (cf-variables.ts).
 */
import * as path from 'node:path';
import * as zarr from 'zarrita';
import type { LoadingCache } from '@fieldcast/caches';
import {
  GridRequestError,
  type BBox,
  type DailyExtremes,
  type EtInputs,
  type GridSource,
  type GridSpec,
  type GridWindow,
  type PointSeries,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '../grid/grid-source.js';
import {
  dailyExtremesAtBySingleReads,
  dailyExtremesInBySingleReads,
  etInputsAtBySingleReads,
  etInputsInBySingleReads,
} from '../grid/batched-reads.js';
import { decodeCfTimes, parseCfTimeUnits, regularAxis } from './cf-time.js';
import { CANONICAL_UNITS, CF_IDENTITY, identifyVariable, unitConversion } from './cf-variables.js';
import { chunkCache, type DecodedChunk } from './chunk-cache.js';
import { FileStore } from './file-store.js';
import { STEP_ATTR } from './layout.js';
import { ScratchPool } from './scratch-pool.js';
import {
  canReadPair,
  isRangeReadable,
  pairLength,
  type RangeReadable,
  readSeries,
  readSeriesPair,
  type SeriesLayout,
  seriesLayout,
} from './series-ranges.js';

type AnyArray = zarr.Array<zarr.DataType, zarr.Readable>;
type Attrs = Record<string, unknown>;

/** A time axis of the store, regular by construction (GridSource answers in start + i*step). */
interface TimeAxis {
  name: string;
  startMs: number;
  stepMs: number;
  length: number;
}

/** One data array of the store as this source reads it. */
export interface ZarrArrayInfo {
  /** array name in the store */
  name: string;
  /** the contract variable it serves, or null when it is not one of them */
  variable: VariableId | null;
  /** units as stored */
  units: string;
  standardName: string;
  cellMethods: string;
  longName: string;
  /** time axis, or null for a static [lat, lon] field */
  time: { name: string; startMs: number; stepMs: number; length: number } | null;
}

interface ArrayReader extends ZarrArrayInfo {
  array: AnyArray;
  /** value = raw * scale + offset after masking; combines CF packing and unit conversion */
  scale: number;
  offset: number;
  /** raw values that mean "missing" (NaN is always missing) */
  missing: number[];
  /** valid_min / valid_max on raw values (CF 2.5.1) */
  validMin: number;
  validMax: number;
  product: string;
  forecastProduct: string | null;
  forecastStartMs: number;
  /** where a cell's series lies in uncompressed chunks, or null: decode chunks with zarrita */
  series: SeriesLayout | null;
}

export interface ZarrSourceOptions {
  /** default: the store's `id` attribute, else the directory or URL basename without `.zarr` */
  id?: string;
  /** default: the store's `title` attribute, else the id */
  label?: string;
  /** bytes of decoded chunks kept in memory (default 256 MiB, 0 disables the cache) */
  cacheBytes?: number;
  /** extra fetch options for HTTP stores (headers, ...) */
  fetchOptions?: RequestInit;
}

/** A request outside the store's grid, time axis or variables (the contract's GridRequestError). */
export class GridCoverageError extends GridRequestError {
  override name = 'GridCoverageError';
}

const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
const LAT_NAMES = new Set(['lat', 'latitude', 'y', 'nav_lat']);
const LON_NAMES = new Set(['lon', 'longitude', 'x', 'nav_lon']);

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  if (Array.isArray(v) && v.length > 0) return num(v[0]);
  return undefined;
}

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

export class ZarrSource implements GridSource {
  private readonly cache: LoadingCache<DecodedChunk>;
  /** Buffers of paired series reads, reused once their values are mixed. */
  private readonly scratch = new ScratchPool();

  private constructor(
    readonly id: string,
    readonly label: string,
    readonly grid: GridSpec,
    readonly attributes: Attrs,
    private readonly lats: Float64Array,
    private readonly lons: Float64Array,
    private readonly readers: ArrayReader[],
    cacheBytes: number,
    /** the raw store, when it serves byte ranges (point series of uncompressed stores) */
    private readonly ranges: (RangeReadable & { close?: () => Promise<void> }) | null,
    /** where the store was opened from: a directory path or an http(s) URL */
    readonly location: string,
  ) {
    this.cache = chunkCache(cacheBytes);
  }

  /** Opens a store: a directory path, a file: URL, or an http(s) URL. */
  static async open(location: string | URL, options: ZarrSourceOptions = {}): Promise<ZarrSource> {
    const raw = storeFor(location, options.fetchOptions);
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
      timeAxes.set(n, { name: n, startMs: reg.startMs, stepMs, length: times.length });
    }

    const readers: ArrayReader[] = [];
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
      readers.push(reader);
    }
    // Exact names first, so a store holding both `air_temperature` and `t2m` serves the former.
    readers.sort((a, b) => Number(b.variable === b.name) - Number(a.variable === a.name) || a.name.localeCompare(b.name));

    const base = path.basename((location instanceof URL ? location.pathname : location).replace(/\/+$/, '')).replace(/\.zarr$/i, '');
    const id = options.id ?? (str(rootAttrs.id) || base);
    const label = options.label ?? (str(rootAttrs.title) || id);
    return new ZarrSource(
      id,
      label,
      grid,
      rootAttrs,
      lats,
      lons,
      readers,
      options.cacheBytes ?? DEFAULT_CACHE_BYTES,
      isRangeReadable(raw) ? raw : null,
      where,
    );
  }

  /** Every data array, including those that are not contract variables. */
  arrays(): ZarrArrayInfo[] {
    return this.readers.map(({ name, variable, units, standardName, cellMethods, longName, time }) => ({
      name,
      variable,
      units,
      standardName,
      cellMethods,
      longName,
      time: time && { ...time },
    }));
  }

  /**
   * The array a read of `variable` would use (the same choice as the reads make), or null when
   * the store has none: its time axis is what CompositeSource checks a request against.
   */
  arrayFor(variable: VariableId): ZarrArrayInfo | null {
    const r = this.readers.find((x) => x.variable === variable) ?? this.readers.find((x) => x.name === variable);
    return r
      ? {
          name: r.name,
          variable: r.variable,
          units: r.units,
          standardName: r.standardName,
          cellMethods: r.cellMethods,
          longName: r.longName,
          time: r.time && { ...r.time },
        }
      : null;
  }

  coverage(): TimeRange {
    let startMs = Infinity;
    let endMs = -Infinity;
    for (const r of this.readers) {
      if (!r.time) continue;
      startMs = Math.min(startMs, r.time.startMs);
      endMs = Math.max(endMs, r.time.startMs + (r.time.length - 1) * r.time.stepMs);
    }
    // A store of static fields only answers for any time (ECMAScript time value limits).
    if (startMs === Infinity) return { startMs: -8.64e15, endMs: 8.64e15 };
    return { startMs, endMs };
  }

  variables(): VariableInfo[] {
    const seen = new Set<VariableId>();
    const out: VariableInfo[] = [];
    for (const r of this.readers) {
      if (!r.variable || seen.has(r.variable)) continue;
      seen.add(r.variable);
      out.push({
        id: r.variable,
        standardName: r.standardName || CF_IDENTITY[r.variable].standardName,
        cellMethods: r.cellMethods,
        units: CANONICAL_UNITS[r.variable],
        description: r.longName || CF_IDENTITY[r.variable].longName,
        stepMs: r.time?.stepMs ?? 0,
      });
    }
    return out;
  }

  /** Drops decoded chunks and open chunk files (e.g. after the store was rewritten). */
  clearCache(): void {
    this.cache.clear();
    void this.ranges?.close?.();
  }

  /** Releases open chunk files and cached chunks; the source still answers afterwards. */
  async close(): Promise<void> {
    this.cache.clear();
    await this.ranges?.close?.();
  }

  private reader(variable: VariableId | string): ArrayReader {
    const r = this.readers.find((x) => x.variable === variable) ?? this.readers.find((x) => x.name === variable);
    if (!r) throw new GridCoverageError('unknown_variable', `store ${this.id} has no variable ${variable}`);
    return r;
  }

  /** Time indices [t0, t1] (inclusive) of a range, clamped to the axis; throws when disjoint. */
  private timeIndices(r: ArrayReader, range: TimeRange): [number, number] {
    if (!r.time) return [0, 0];
    const { startMs, stepMs, length } = r.time;
    if (stepMs <= 0) {
      if (range.startMs <= startMs && startMs <= range.endMs) return [0, 0];
      throw new GridCoverageError('out_of_coverage', `${r.name}: ${iso(range.startMs)}..${iso(range.endMs)} is outside ${iso(startMs)}`);
    }
    const t0 = Math.max(0, Math.ceil((range.startMs - startMs) / stepMs));
    const t1 = Math.min(length - 1, Math.floor((range.endMs - startMs) / stepMs));
    if (t1 < t0) {
      const end = startMs + (length - 1) * stepMs;
      throw new GridCoverageError(
        'out_of_coverage',
        `${r.name}: ${iso(range.startMs)}..${iso(range.endMs)} is outside ${iso(startMs)}..${iso(end)}`,
      );
    }
    return [t0, t1];
  }

  private isGlobalLon(): boolean {
    return Math.abs(this.grid.nLon * this.grid.dLon - 360) < 1e-6 * 360;
  }

  /** A longitude moved by a whole turn into the grid's own domain (-180..180 or 0..360). */
  private lonInGrid(lon: number): number {
    const { lon0, dLon, nLon } = this.grid;
    const west = lon0 - dLon / 2;
    const east = lon0 + (nLon - 0.5) * dLon;
    for (const candidate of [lon, lon + 360, lon - 360]) {
      if (candidate >= west && candidate <= east) return candidate;
    }
    return lon;
  }

  async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    const r = this.reader(variable);
    const [t0, t1] = this.timeIndices(r, range);
    const { lat0, dLat, nLat, lon0, dLon, nLon } = this.grid;
    const fi = (lat - lat0) / dLat;
    const fj = (this.lonInGrid(lon) - lon0) / dLon;
    const global = this.isGlobalLon();
    // Cell centres are the grid points; a point within half a cell of the outermost centres
    // belongs to that edge cell and takes its value (no extrapolation beyond it).
    if (fi < -0.5 || fi > nLat - 0.5 || (!global && (fj < -0.5 || fj > nLon - 0.5))) {
      throw new GridCoverageError('out_of_coverage', `point (${lon}, ${lat}) is outside the grid of store ${this.id}`);
    }
    const ci = Math.min(Math.max(fi, 0), nLat - 1);
    const i0 = Math.floor(ci);
    const wi = ci - i0;
    let j0: number;
    let wj: number;
    let j1: number;
    if (global) {
      const cj = ((fj % nLon) + nLon) % nLon;
      j0 = Math.floor(cj);
      wj = cj - j0;
      j1 = (j0 + 1) % nLon;
    } else {
      const cj = Math.min(Math.max(fj, 0), nLon - 1);
      j0 = Math.floor(cj);
      wj = cj - j0;
      j1 = Math.min(j0 + 1, nLon - 1);
    }
    const i1 = Math.min(i0 + 1, nLat - 1);
    // Neighbours with zero weight are not read: a point on a grid line reads two series, a
    // point on a grid node one.
    const stencil: Array<[number, number, number]> = [
      [i0, j0, (1 - wi) * (1 - wj)],
      [i0, j1, (1 - wi) * wj],
      [i1, j0, wi * (1 - wj)],
      [i1, j1, wi * wj],
    ];
    const used = stencil.filter(([, , w]) => w > 0);
    const nt = t1 - t0 + 1;
    const values = new Float32Array(nt);
    const taken: Float32Array[] = [];
    try {
      const series = await this.readStencil(r, t0, t1 + 1, used, taken);
      if (used.length === 1) {
        values.set(series[0]!);
      } else {
        interpolate(
          series,
          used.map(([, , w]) => w),
          values,
        );
      }
    } finally {
      for (const buffer of taken) this.scratch.give(buffer);
    }
    const stepMs = r.time?.stepMs ?? 0;
    const startMs = r.time ? r.time.startMs + t0 * stepMs : range.startMs;
    return {
      variable: (r.variable ?? r.name) as VariableId,
      units: r.variable ? CANONICAL_UNITS[r.variable] : r.units,
      startMs,
      stepMs,
      values,
      productOf: (index: number) => productAt(r, startMs + index * stepMs),
    };
  }

  /** Index range [a, b) of centres inside [lo, hi] on an axis of n points from c0 by d. */
  private static centresIn(lo: number, hi: number, c0: number, d: number, n: number): [number, number] {
    const eps = 1e-9 * Math.abs(d);
    const a = Math.max(0, Math.ceil((lo - c0) / d - eps));
    const b = Math.min(n, Math.floor((hi - c0) / d + eps) + 1);
    return [a, Math.max(a, b)];
  }

  private bboxIndices(bbox: BBox): { i: [number, number]; j: [number, number] } {
    const [west, south, east, north] = bbox;
    if (!(west <= east) || !(south <= north)) {
      throw new GridCoverageError('invalid_bbox', `bbox [${bbox.join(', ')}] must have west <= east and south <= north`);
    }
    const { lat0, dLat, nLat, lon0, dLon, nLon } = this.grid;
    const i = ZarrSource.centresIn(south, north, lat0, dLat, nLat);
    // A bbox in -180..180 on a 0..360 grid (or the reverse) is shifted by a whole turn.
    let w = west;
    let e = east;
    const gridEast = lon0 + (nLon - 1) * dLon;
    if (e < lon0 && e + 360 <= gridEast + 360) {
      w += 360;
      e += 360;
    } else if (w > gridEast) {
      w -= 360;
      e -= 360;
    }
    const j = ZarrSource.centresIn(w, e, lon0, dLon, nLon);
    return { i, j };
  }

  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    const r = this.reader(variable);
    const [t0, t1] = this.timeIndices(r, range);
    return this.windowAt(r, bbox, t0, t1);
  }

  async slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    const r = this.reader(variable);
    let t = 0;
    if (r.time && r.time.stepMs > 0) {
      t = Math.floor((timeMs - r.time.startMs) / r.time.stepMs);
      if (t < 0 || t >= r.time.length) {
        throw new GridCoverageError('out_of_coverage', `${r.name}: ${iso(timeMs)} is outside the store's time axis`);
      }
    }
    return this.windowAt(r, bbox, t, t);
  }

  /** Each variable is its own array: the batched reads are the single reads, concurrently. */
  dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    return dailyExtremesAtBySingleReads(this, lon, lat, range);
  }

  dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    return dailyExtremesInBySingleReads(this, bbox, range);
  }

  etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>> {
    return etInputsAtBySingleReads(this, lon, lat, range);
  }

  etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
    return etInputsInBySingleReads(this, bbox, range);
  }

  private async windowAt(r: ArrayReader, bbox: BBox, t0: number, t1: number): Promise<GridWindow> {
    const { i, j } = this.bboxIndices(bbox);
    const values = await this.readBlock(r, t0, t1 + 1, i[0], i[1], j[0], j[1]);
    const stepMs = r.time?.stepMs ?? 0;
    const startMs = r.time ? r.time.startMs + t0 * stepMs : 0;
    return {
      variable: (r.variable ?? r.name) as VariableId,
      units: r.variable ? CANONICAL_UNITS[r.variable] : r.units,
      lats: this.lats.slice(i[0], i[1]),
      lons: this.lons.slice(j[0], j[1]),
      dLat: this.grid.dLat,
      dLon: this.grid.dLon,
      startMs,
      stepMs,
      nt: t1 - t0 + 1,
      values,
      productOf: (index: number) => productAt(r, startMs + index * stepMs),
    };
  }

  /**
   * The series of cell (i, j) for [t0, t1) in contract units: byte ranges of the chunk files
   * when the array is stored uncompressed in Fortran order (series-ranges.ts), else decoded
   * chunks.
   */
  private async readSeries(r: ArrayReader, t0: number, t1: number, i: number, j: number): Promise<Float32Array> {
    if (!r.series || !this.ranges) return this.readBlock(r, t0, t1, i, i + 1, j, j + 1);
    return converted(r, await readSeries(this.ranges, r.series, t0, t1, i, j));
  }

  /**
   * The series of a bilinear stencil's cells ([i0, j0], [i0, j1], [i1, j0], [i1, j1] when all
   * four are used). Each column's two cells come from one ranged read when the layout allows
   * (series-ranges.ts `readSeriesPair`): two reads per variable instead of four, into buffers
   * from the scratch pool, listed in `taken` for the caller to give back once it has mixed them.
   */
  private async readStencil(
    r: ArrayReader,
    t0: number,
    t1: number,
    used: Array<[number, number, number]>,
    taken: Float32Array[],
  ): Promise<Float32Array[]> {
    const [a, b, c] = used;
    const ranges = this.ranges;
    const layout = r.series;
    if (used.length === 4 && ranges && layout && a && b && c && c[0] === a[0] + 1 && canReadPair(layout, t0, t1, a[0])) {
      const length = pairLength(layout, t0, t1);
      const l = this.scratch.take(length),
        rt = this.scratch.take(length);
      taken.push(l, rt);
      const [left, right] = await Promise.all([
        readSeriesPair(ranges, layout, t0, t1, a[0], a[1], l),
        readSeriesPair(ranges, layout, t0, t1, b[0], b[1], rt),
      ]);
      return [left[0], right[0], left[1], right[1]].map((raw) => converted(r, raw));
    }
    return Promise.all(used.map(([i, j]) => this.readSeries(r, t0, t1, i, j)));
  }

  private chunk(r: ArrayReader, coords: number[]): Promise<DecodedChunk> {
    // With the cache off (maxBytes 0) concurrent readers still share one load.
    return this.cache.get(`${r.name}/${coords.join('.')}`, () => r.array.getChunk(coords) as Promise<DecodedChunk>);
  }

  /**
   * Values of [t0, t1) x [i0, i1) x [j0, j1) as float32 in contract units, row-major.
   * Static [lat, lon] arrays ignore the time range and give one step.
   */
  private async readBlock(r: ArrayReader, t0: number, t1: number, i0: number, i1: number, j0: number, j1: number): Promise<Float32Array> {
    const is3d = r.array.shape.length === 3;
    if (!is3d) {
      t0 = 0;
      t1 = 1;
    }
    const nt = t1 - t0;
    const ni = i1 - i0;
    const nj = j1 - j0;
    const out = new Float32Array(Math.max(0, nt * ni * nj));
    if (out.length === 0) return out;
    const cs = r.array.chunks;
    const [ct, ci, cj] = is3d ? [cs[0]!, cs[1]!, cs[2]!] : [1, cs[0]!, cs[1]!];
    const jobs: Array<Promise<void>> = [];
    for (let kt = Math.floor(t0 / ct); kt * ct < t1; kt++) {
      for (let ki = Math.floor(i0 / ci); ki * ci < i1; ki++) {
        for (let kj = Math.floor(j0 / cj); kj * cj < j1; kj++) {
          const coords = is3d ? [kt, ki, kj] : [ki, kj];
          jobs.push(
            this.chunk(r, coords).then((c) => {
              const ta = Math.max(t0, kt * ct),
                tb = Math.min(t1, (kt + 1) * ct);
              const ia = Math.max(i0, ki * ci),
                ib = Math.min(i1, (ki + 1) * ci);
              const ja = Math.max(j0, kj * cj),
                jb = Math.min(j1, (kj + 1) * cj);
              const [st, si, sj] = is3d ? [c.stride[0]!, c.stride[1]!, c.stride[2]!] : [0, c.stride[0]!, c.stride[1]!];
              copyConverted(r, c.data, out, {
                nt: tb - ta,
                ni: ib - ia,
                nj: jb - ja,
                src: (ta - kt * ct) * st + (ia - ki * ci) * si + (ja - kj * cj) * sj,
                st,
                si,
                sj,
                dst: ((ta - t0) * ni + (ia - i0)) * nj + (ja - j0),
                dt: ni * nj,
                di: nj,
              });
            }),
          );
        }
      }
    }
    await Promise.all(jobs);
    return out;
  }
}

/**
 * values[t] = sum of w[k] series[k][t] / sum of w[k]: bilinear interpolation. Missing neighbours
 * drop out and the remaining weights are renormalised, so a coastal point next to a masked cell
 * still gets a value. The weights are divided by their sum once, not per step; the common case
 * runs as one unrolled pass until a step with a missing value, which the general loop finishes.
 */
function interpolate(series: Float32Array[], w: number[], values: Float32Array): void {
  const n = series.length;
  let wTotal = 0;
  for (let k = 0; k < n; k++) wTotal += w[k]!;
  const a = series[0]!,
    b = series[1]!,
    c = series[2] ?? a,
    d = series[3] ?? a;
  const wa = w[0]! / wTotal,
    wb = w[1]! / wTotal,
    wc = n > 2 ? w[2]! / wTotal : 0,
    wd = n > 3 ? w[3]! / wTotal : 0;
  const nt = values.length;
  let t = 0;
  for (; t < nt; t++) {
    const sum = wa * a[t]! + wb * b[t]! + wc * c[t]! + wd * d[t]!;
    if (sum !== sum) break;
    values[t] = sum;
  }
  for (; t < nt; t++) {
    let s = 0;
    let ws = 0;
    for (let k = 0; k < n; k++) {
      const v = series[k]![t]!;
      if (Number.isNaN(v)) continue;
      s += w[k]! * v;
      ws += w[k]!;
    }
    values[t] = ws > 0 ? s / ws : NaN;
  }
}

interface CopyPlan {
  nt: number;
  ni: number;
  nj: number;
  src: number;
  st: number;
  si: number;
  sj: number;
  dst: number;
  dt: number;
  di: number;
}

/** A raw series in contract units: itself when the array is plain, else a converted copy. */
function converted(r: ArrayReader, raw: Float32Array): Float32Array {
  if (isPlain(r)) return raw;
  const out = new Float32Array(raw.length);
  copyConverted(r, raw, out, { nt: raw.length, ni: 1, nj: 1, src: 0, st: 1, si: 0, sj: 0, dst: 0, dt: 1, di: 0 });
  return out;
}

/** Raw float32 values are the answer: no packing, conversion or masking beyond NaN. */
function isPlain(r: ArrayReader): boolean {
  return r.scale === 1 && r.offset === 0 && r.missing.length === 0 && r.validMin === -Infinity && r.validMax === Infinity;
}

/** Copies a sub-block, masking missing values and applying packing and unit conversion. */
function copyConverted(r: ArrayReader, data: DecodedChunk['data'], out: Float32Array, p: CopyPlan): void {
  const plain = data instanceof Float32Array && isPlain(r);
  if (plain && p.ni === 1 && p.nj === 1) {
    // A point series: one value per time step, st apart in the chunk.
    const src = data as Float32Array;
    for (let t = 0, s = p.src, d = p.dst; t < p.nt; t++, s += p.st, d += p.dt) out[d] = src[s]!;
    return;
  }
  for (let t = 0; t < p.nt; t++) {
    for (let i = 0; i < p.ni; i++) {
      let s = p.src + t * p.st + i * p.si;
      let d = p.dst + t * p.dt + i * p.di;
      if (plain && p.sj === 1) {
        out.set((data as Float32Array).subarray(s, s + p.nj), d);
        continue;
      }
      for (let j = 0; j < p.nj; j++, s += p.sj, d++) {
        const raw = Number(data[s]);
        out[d] = Number.isNaN(raw) || r.missing.includes(raw) || raw < r.validMin || raw > r.validMax ? NaN : raw * r.scale + r.offset;
      }
    }
  }
}

function productAt(r: ArrayReader, timeMs: number): string {
  return r.forecastProduct !== null && timeMs >= r.forecastStartMs ? r.forecastProduct : r.product;
}

function iso(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
}

function makeReader(name: string, array: AnyArray, time: TimeAxis | null, rootAttrs: Attrs): ArrayReader {
  const attrs = array.attrs as Attrs;
  const units = str(attrs.units);
  const variable = identifyVariable(name, attrs);
  const conv = variable ? unitConversion(variable, units)! : { scale: 1, offset: 0 };
  // CF 8.1: unpacked = packed * scale_factor + add_offset; then the unit conversion.
  const packScale = num(attrs.scale_factor) ?? 1;
  const packOffset = num(attrs.add_offset) ?? 0;
  const missing: number[] = [];
  for (const v of [array.fillValue, attrs._FillValue, attrs.missing_value]) {
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) {
      const n = num(x);
      // Compared with raw values that may be float32: keep the float32 rounding too.
      if (n !== undefined && !Number.isNaN(n)) missing.push(n, Math.fround(n));
    }
  }
  const validRange = Array.isArray(attrs.valid_range) ? attrs.valid_range.map(num) : [];
  const validMin = num(attrs.valid_min) ?? validRange[0] ?? -Infinity;
  const validMax = num(attrs.valid_max) ?? validRange[1] ?? Infinity;
  const product = str(attrs.product) || str(rootAttrs.product) || str(rootAttrs.id) || 'zarr';
  const forecastProduct = str(attrs.forecast_product) || str(rootAttrs.forecast_product) || null;
  const forecastStart = Date.parse(str(attrs.forecast_start) || str(rootAttrs.forecast_start));
  return {
    name,
    variable,
    units,
    standardName: str(attrs.standard_name),
    cellMethods: str(attrs.cell_methods),
    longName: str(attrs.long_name),
    time: time && { ...time },
    array,
    scale: packScale * conv.scale,
    offset: packOffset * conv.scale + conv.offset,
    missing,
    validMin,
    validMax,
    product,
    forecastProduct: forecastProduct && Number.isFinite(forecastStart) ? forecastProduct : null,
    forecastStartMs: Number.isFinite(forecastStart) ? forecastStart : Infinity,
    series: null,
  };
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
