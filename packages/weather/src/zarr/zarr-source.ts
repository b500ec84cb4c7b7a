/**
 * ZarrSource: a GridSource over a Zarr store on local disk or HTTP (docs/architecture.md §6).
 *
 * Reads what Fieldcast's writer produces (Zarr v2, xarray conventions) and, as far as the
 * contract allows, stores written by xarray: v2 or v3 (zarrita reads both), dimension names
 * from `_ARRAY_DIMENSIONS` (v2) or `dimension_names` (v3), CF packing (`scale_factor`,
 * `add_offset`, CF 8.1), missing values from the array fill value, `_FillValue` and
 * `missing_value` (CF 2.5.1), units converted to the contract's on read (cf-variables.ts).
 *
 * Its parts: store-metadata.ts (what opening finds), array-reader.ts (raw values to contract
 * values), grid-indices.ts (a request's index ranges), bilinear.ts (a point between cells),
 * block-reads.ts (blocks chunk by chunk) and series-ranges.ts (point series as byte ranges).
 */
import * as path from 'node:path';
import type { LoadingCache } from '@fieldcast/caches';
import type {
  BBox,
  GridSource,
  GridSpec,
  GridWindow,
  PointSeries,
  TimeCell,
  TimeRange,
  VariableId,
  VariableInfo,
} from '../grid/grid-source.js';
import { SingleReadsSource } from '../grid/batched-reads.js';
import { gridExtent } from '../grid/grid-extent.js';
import { isTimeStatistic, timeCellField } from '../grid/time-cells.js';
import { type ArrayReader, arrayInfo, converted, productAt, type ZarrArrayInfo } from './array-reader.js';
import { type Attrs, str } from './attribute-values.js';
import { bilinearStencil, interpolate, nearestCell, type StencilCell } from './bilinear.js';
import { type Block, chunkValuesOver, readBlock } from './block-reads.js';
import { CANONICAL_UNITS, CF_IDENTITY, isCategorical } from './cf-variables.js';
import { chunkCache, type DecodedChunk } from './chunk-cache.js';
import { GridCoverageError } from './coverage-error.js';
import { bboxIndices, iso, timeIndices } from './grid-indices.js';
import { ScratchPool } from './scratch-pool.js';
import { canReadPair, pairLength, type RangeReadable, readSeries, readSeriesPair } from './series-ranges.js';
import { readStoreMetadata } from './store-metadata.js';

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

const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

export class ZarrSource extends SingleReadsSource implements GridSource {
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
    super();
    this.cache = chunkCache(cacheBytes);
  }

  /** Opens a store: a directory path, a file: URL, or an http(s) URL. */
  static async open(location: string | URL, options: ZarrSourceOptions = {}): Promise<ZarrSource> {
    const { where, rootAttrs, grid, lats, lons, readers, ranges } = await readStoreMetadata(location, options.fetchOptions);
    const base = path.basename((location instanceof URL ? location.pathname : location).replace(/\/+$/, '')).replace(/\.zarr$/i, '');
    const id = options.id ?? (str(rootAttrs.id) || base);
    const label = options.label ?? (str(rootAttrs.title) || id);
    return new ZarrSource(id, label, grid, rootAttrs, lats, lons, readers, options.cacheBytes ?? DEFAULT_CACHE_BYTES, ranges, where);
  }

  /** Every data array, including those that are not contract variables. */
  arrays(): ZarrArrayInfo[] {
    return this.readers.map(arrayInfo);
  }

  /**
   * The array a read of `variable` would use (the same choice as the reads make), or null when
   * the store has none: its time axis is what CompositeSource checks a request against.
   */
  arrayFor(variable: VariableId): ZarrArrayInfo | null {
    const r = this.readers.find((x) => x.variable === variable) ?? this.readers.find((x) => x.name === variable);
    return r ? arrayInfo(r) : null;
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
      out.push(variableInfo(r, r.variable));
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

  async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    const r = this.reader(variable);
    const [t0, t1] = timeIndices(r, range);
    const around = bilinearStencil(this.grid, lon, lat);
    const used = around && r.variable && isCategorical(r.variable) ? [nearestCell(around)] : around;
    if (!used)
      throw new GridCoverageError(
        'out_of_coverage',
        `point (${lon}, ${lat}) is outside the grid of store ${this.id} (${gridExtent(this).box})`,
      );
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
      ...cellOfReads(r),
      productOf: (index: number) => productAt(r, startMs + index * stepMs),
    };
  }

  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    const r = this.reader(variable);
    const [t0, t1] = timeIndices(r, range);
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

  private async windowAt(r: ArrayReader, bbox: BBox, t0: number, t1: number): Promise<GridWindow> {
    const { i, j } = bboxIndices(this.grid, bbox);
    const values = await this.readBlock(r, { t0, t1: t1 + 1, i0: i[0], i1: i[1], j0: j[0], j1: j[1] });
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
      ...cellOfReads(r),
      productOf: (index: number) => productAt(r, startMs + index * stepMs),
    };
  }

  /**
   * The series of cell (i, j) for [t0, t1) in contract units: byte ranges of the chunk files
   * when the array is stored uncompressed in Fortran order (series-ranges.ts), else decoded
   * chunks.
   */
  private async readSeries(r: ArrayReader, t0: number, t1: number, i: number, j: number): Promise<Float32Array> {
    if (!r.series || !this.ranges) return this.readBlock(r, { t0, t1, i0: i, i1: i + 1, j0: j, j1: j + 1 });
    return converted(r, await readSeries(this.ranges, r.series, t0, t1, i, j));
  }

  /**
   * The series of a bilinear stencil's cells ([i0, j0], [i0, j1], [i1, j0], [i1, j1] when all
   * four are used). Each column's two cells come from one ranged read when the layout allows
   * (series-ranges.ts `readSeriesPair`): two reads per variable instead of four, into buffers
   * from the scratch pool, listed in `taken` for the caller to give back once it has mixed them.
   */
  private async readStencil(r: ArrayReader, t0: number, t1: number, used: StencilCell[], taken: Float32Array[]): Promise<Float32Array[]> {
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

  /**
   * A block through this source's chunk cache (block-reads.ts), from the array or from its frame
   * copy, whichever holds the block in fewer chunk values: a map of one step reads the frame
   * copy, a series or a long window the array (docs/decisions/0505-frame-copies-of-synced-runs.md).
   * Both hold the same values, so the answer is the same either way.
   */
  private readBlock(r: ArrayReader, block: Block): Promise<Float32Array> {
    const from = r.frames && chunkValuesOver(r.frames, block) < chunkValuesOver(r, block) ? r.frames : r;
    // With the cache off (maxBytes 0) concurrent readers still share one load.
    return readBlock(
      from,
      (coords) => this.cache.get(`${from.name}/${coords.join('.')}`, () => from.array.getChunk(coords) as Promise<DecodedChunk>),
      block,
    );
  }
}

/**
 * A contract variable as its array describes it. A statistic over time (CF 1.11 §7.3
 * cell_methods) stands for the cell its time axis' bounds state (store-metadata.ts); an instant
 * for its stamp.
 */
function variableInfo(r: ArrayReader, variable: VariableId): VariableInfo {
  const cell = isTimeStatistic(r.cellMethods) ? r.time?.cell : undefined;
  return {
    id: variable,
    standardName: r.standardName || CF_IDENTITY[variable].standardName,
    cellMethods: r.cellMethods,
    units: CANONICAL_UNITS[variable],
    description: r.longName || CF_IDENTITY[variable].longName,
    stepMs: r.time?.stepMs ?? 0,
    ...(cell ? { timeCell: cell } : {}),
  };
}

/** The time cell a read of the array carries (grid-source.ts PointSeries.timeCell). */
function cellOfReads(r: ArrayReader): { timeCell?: TimeCell } {
  return r.variable ? timeCellField(variableInfo(r, r.variable)) : {};
}
