/**
 * Writes Fieldcast grid stores: Zarr v2 directories that zarrita, xarray and GDAL read.
 *
 * Format (zarr-specs v2): `.zgroup`/`.zattrs` at the root, one directory per array with
 * `.zarray` and `.zattrs`, chunk keys joined with "." (v2 default), little endian, and
 * `.zmetadata` (zarr-python consolidated format 1) so an HTTP reader needs one request for
 * all metadata. Data arrays are float32 with fill value NaN. [time, lat, lon] arrays are in
 * Fortran order and uncompressed by default, so ZarrSource reads a point series as byte
 * ranges of the chunk files (layout.ts, docs/decisions/0014-zarr-v2-point-series-layout.md); other arrays are in C order. zstd and
 * gzip remain options, encoded through zarrita's codec registry (numcodecs.js, WebAssembly),
 * so writer and reader share one implementation.
 */
import * as fs from 'node:fs/promises';
import * as zarr from 'zarrita';
import type { TimeCell } from '../grid/grid-source.js';
import { encodeStoreTimes, STORE_TIME_CALENDAR, STORE_TIME_UNITS } from './cf-time.js';
import { FileStore } from './file-store.js';
import { ARRAY_DIMENSIONS, defaultChunks, LAT, LON, STEP_ATTR, staticChunks, TIME_SERIES_ORDER } from './layout.js';

export type ZarrCompressor = 'zstd' | 'gzip' | 'none';

export interface GridStoreOptions {
  /** cell-centre latitudes, ascending */
  lats: ArrayLike<number>;
  /** cell-centre longitudes, ascending */
  lons: ArrayLike<number>;
  /** root (global) attributes: title, source, history, product ... */
  attributes?: Record<string, unknown>;
  /**
   * default "none": float32 fields compress by only ~15 % with zstd, and a compressed chunk
   * must be decoded whole, which costs a point read ~100x (bench/zarr.bench.ts)
   */
  compressor?: ZarrCompressor;
  /** compression level (zstd 1..22, gzip 1..9) */
  level?: number;
  /** replace an existing directory */
  overwrite?: boolean;
}

export interface TimeAxisSpec {
  /** coordinate name, e.g. "time" or "time_1d" */
  name: string;
  startMs: number;
  stepMs: number;
  length: number;
  /** the cell each stamp stands for, as offsets from it: written as the axis' bounds, `<name>_bnds` (CF 1.11 §7.1) */
  cell?: TimeCell;
}

export interface VariableSpec {
  name: string;
  /** name of a time axis added before; omitted for a static [lat, lon] field */
  time?: string;
  /** CF attributes: standard_name, units, cell_methods, long_name, ... */
  attributes?: Record<string, unknown>;
  /** chunk shape; defaults from layout.ts */
  chunks?: number[];
  /** element order inside a chunk; default "F" for [time, lat, lon], "C" for static fields */
  order?: 'C' | 'F';
}

type Json = Record<string, unknown>;

function compressorMeta(kind: ZarrCompressor, level: number | undefined): Json | null {
  switch (kind) {
    case 'zstd':
      return { id: 'zstd', level: level ?? 3 };
    case 'gzip':
      return { id: 'gzip', level: level ?? 5 };
    case 'none':
      return null;
  }
}

/** JSON has no NaN/Infinity; Zarr v2 spells such fill values as strings ("Metadata", fill_value). */
function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 2));
}

/** The bounds variable of time axis `axis` (CF 1.11 §7.1), named by the axis' `bounds` attribute. */
export const timeBoundsName = (axis: string) => `${axis}_bnds`;

/**
 * The Zarr v2 metadata of a time axis' bounds (CF 1.11 §7.1): [time, 2] float64 in the
 * coordinate's units, `chunk` rows a chunk, with no attributes of its own; its second dimension,
 * `nv`, has no coordinate.
 */
export function timeBoundsMetadata(axis: string, length: number, chunk: number, compressor: Json | null = null) {
  return {
    zarray: {
      zarr_format: 2,
      shape: [length, 2],
      chunks: [chunk, 2],
      dtype: '<f8',
      compressor,
      fill_value: null,
      order: 'C',
      filters: null,
      dimension_separator: '.',
    },
    zattrs: { [ARRAY_DIMENSIONS]: [axis, 'nv'] },
  };
}

/** The bounds rows (CF 1.11 §7.1) of stamps in the store's hours: each stamp's cell, [stamp + start, stamp + end]. */
export function timeBoundsValues(hours: ArrayLike<number>, [a, b]: TimeCell): Float64Array {
  const values = new Float64Array(2 * hours.length);
  for (let i = 0; i < hours.length; i++) {
    values[2 * i] = hours[i]! + a / 3_600_000;
    values[2 * i + 1] = hours[i]! + b / 3_600_000;
  }
  return values;
}

export class GridStoreWriter {
  private readonly meta = new Map<string, Json>();
  private readonly shapes = new Map<string, number[]>();
  private readonly chunkShapes = new Map<string, number[]>();
  private readonly timeAxes = new Map<string, TimeAxisSpec>();
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly store: FileStore,
    private readonly nLat: number,
    private readonly nLon: number,
    private readonly compressor: Json | null,
  ) {}

  static async create(dir: string, options: GridStoreOptions): Promise<GridStoreWriter> {
    const exists = await fs.readdir(dir).then(
      (e) => e.length > 0,
      () => false,
    );
    if (exists) {
      if (!options.overwrite) throw new Error(`${dir} exists and is not empty (pass overwrite to replace it)`);
      await fs.rm(dir, { recursive: true, force: true });
    }
    await fs.mkdir(dir, { recursive: true });
    const store = new FileStore(dir);
    const w = new GridStoreWriter(
      dir,
      store,
      options.lats.length,
      options.lons.length,
      compressorMeta(options.compressor ?? 'none', options.level),
    );
    await w.putMeta('.zgroup', { zarr_format: 2 });
    await w.putMeta('.zattrs', { Conventions: 'CF-1.11', ...(options.attributes ?? {}) });
    // CF 4.1 and 4.2: latitude and longitude coordinates, identified by units and standard_name.
    await w.coordinate(LAT, Float64Array.from(options.lats), {
      standard_name: 'latitude',
      long_name: 'latitude',
      units: 'degrees_north',
      axis: 'Y',
    });
    await w.coordinate(LON, Float64Array.from(options.lons), {
      standard_name: 'longitude',
      long_name: 'longitude',
      units: 'degrees_east',
      axis: 'X',
    });
    return w;
  }

  private async putMeta(key: string, value: Json): Promise<void> {
    this.meta.set(key, value);
    await this.store.set(`/${key}`, jsonBytes(value));
  }

  private async coordinate(name: string, values: Float64Array, attrs: Json): Promise<void> {
    const n = Math.max(values.length, 1);
    await this.putMeta(`${name}/.zarray`, {
      zarr_format: 2,
      shape: [values.length],
      chunks: [n],
      dtype: '<f8',
      compressor: this.compressor,
      fill_value: null,
      order: 'C',
      filters: null,
      dimension_separator: '.',
    });
    await this.putMeta(`${name}/.zattrs`, { [ARRAY_DIMENSIONS]: [name], ...attrs });
    this.shapes.set(name, [values.length]);
    await this.write(name, values);
  }

  /** A CF time coordinate (CF 4.4) with regular steps, encoded as hours since 1970. */
  async addTimeAxis(axis: TimeAxisSpec): Promise<void> {
    if (this.timeAxes.has(axis.name)) throw new Error(`time axis ${axis.name} already added`);
    this.timeAxes.set(axis.name, axis);
    await this.coordinate(axis.name, encodeStoreTimes(axis.startMs, axis.stepMs, axis.length), {
      standard_name: 'time',
      long_name: 'time',
      axis: 'T',
      units: STORE_TIME_UNITS,
      calendar: STORE_TIME_CALENDAR,
      ...(axis.length === 1 ? { [STEP_ATTR]: axis.stepMs } : {}),
      ...(axis.cell ? { bounds: timeBoundsName(axis.name) } : {}),
    });
    if (axis.cell) await this.timeBounds(axis, axis.cell);
  }

  /** The axis' bounds (CF 1.11 §7.1), each stamp's cell. */
  private async timeBounds(axis: TimeAxisSpec, cell: TimeCell): Promise<void> {
    const name = timeBoundsName(axis.name);
    const { zarray, zattrs } = timeBoundsMetadata(axis.name, axis.length, Math.max(axis.length, 1), this.compressor);
    await this.putMeta(`${name}/.zarray`, zarray);
    await this.putMeta(`${name}/.zattrs`, zattrs);
    this.shapes.set(name, [axis.length, 2]);
    await this.write(name, timeBoundsValues(encodeStoreTimes(axis.startMs, axis.stepMs, axis.length), cell));
  }

  async addVariable(spec: VariableSpec): Promise<void> {
    if (this.meta.has(`${spec.name}/.zarray`)) throw new Error(`array ${spec.name} already added`);
    let shape: number[];
    let dims: string[];
    let chunks: number[];
    let order: 'C' | 'F' = 'C';
    if (spec.time !== undefined) {
      order = TIME_SERIES_ORDER;
      const axis = this.timeAxes.get(spec.time);
      if (!axis) throw new Error(`time axis ${spec.time} not added`);
      shape = [axis.length, this.nLat, this.nLon];
      dims = [spec.time, LAT, LON];
      chunks = spec.chunks ?? defaultChunks(axis.length, axis.stepMs, this.nLat, this.nLon);
    } else {
      shape = [this.nLat, this.nLon];
      dims = [LAT, LON];
      chunks = spec.chunks ?? staticChunks(this.nLat, this.nLon);
    }
    if (chunks.length !== shape.length) throw new Error(`chunks of ${spec.name} must have ${shape.length} entries`);
    // Missing values are NaN and declared as the array's fill value, which xarray exposes as
    // _FillValue (CF 2.5.1); a separate _FillValue attribute would be overridden by it.
    await this.putMeta(`${spec.name}/.zarray`, {
      zarr_format: 2,
      shape,
      chunks,
      dtype: '<f4',
      compressor: this.compressor,
      fill_value: 'NaN',
      order: spec.order ?? order,
      filters: null,
      dimension_separator: '.',
    });
    await this.putMeta(`${spec.name}/.zattrs`, { [ARRAY_DIMENSIONS]: dims, ...(spec.attributes ?? {}) });
    this.shapes.set(spec.name, shape);
    this.chunkShapes.set(spec.name, chunks);
  }

  /** Shape and chunk shape of a data array added before (to write it in whole-chunk blocks). */
  layoutOf(name: string): { shape: number[]; chunks: number[] } {
    const shape = this.shapes.get(name);
    const chunks = this.chunkShapes.get(name);
    if (!shape || !chunks) throw new Error(`data array ${name} not added`);
    return { shape: shape.slice(), chunks: chunks.slice() };
  }

  /**
   * Writes a C-ordered block whose first element sits at `start` (default: the whole array).
   * Blocks that cover whole chunks are written without reading anything back.
   */
  async write(name: string, data: Float32Array | Float64Array, start?: number[], blockShape?: number[]): Promise<void> {
    if (this.closed) throw new Error('writer is closed');
    const shape = this.shapes.get(name);
    if (!shape) throw new Error(`array ${name} not added`);
    const origin = start ?? shape.map(() => 0);
    const bs = blockShape ?? shape.map((n, i) => n - (origin[i] ?? 0));
    const size = bs.reduce((a, b) => a * b, 1);
    if (size !== data.length) throw new Error(`block of ${name} has ${data.length} values, shape [${bs.join(', ')}] needs ${size}`);
    if (size === 0) return;
    const stride = bs.map((_, i) => bs.slice(i + 1).reduce((a, b) => a * b, 1));
    const arr = await zarr.open.v2(zarr.root(this.store).resolve(name), { kind: 'array' });
    const selection = bs.map((n, i) => zarr.slice(origin[i]!, origin[i]! + n));
    // zarrita's set is typed per dtype; the array's dtype matches data by construction above.
    await zarr.set(arr as zarr.Array<zarr.DataType, FileStore>, selection, { data, shape: bs, stride } as never);
  }

  /** Writes the consolidated metadata; the store is complete after this. */
  async close(): Promise<void> {
    if (this.closed) return;
    const metadata: Json = {};
    for (const [k, v] of this.meta) metadata[k] = v;
    await this.store.set('/.zmetadata', jsonBytes({ metadata, zarr_consolidated_format: 1 }));
    this.closed = true;
  }
}
