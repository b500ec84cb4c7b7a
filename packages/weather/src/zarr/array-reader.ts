/**
 * One data array of a store as ZarrSource reads it: what it serves (the contract variable, its
 * time axis, its products) and how a raw value becomes a value in contract units (CF packing,
 * missing values, unit conversion; docs/decisions/0015-zarr-reading-rules.md).
 */
import type * as zarr from 'zarrita';
import type { TimeCell, VariableId } from '../grid/grid-source.js';
import { type Attrs, num, str } from './attribute-values.js';
import type { DecodedChunk } from './chunk-cache.js';
import { identifyVariable, unitConversion } from './cf-variables.js';
import type { SeriesLayout } from './series-ranges.js';

export type AnyArray = zarr.Array<zarr.DataType, zarr.Readable>;

/** A time axis of the store, regular by construction (GridSource answers in start + i*step). */
export interface TimeAxis {
  name: string;
  startMs: number;
  stepMs: number;
  length: number;
  /** the cell of each stamp, as offsets from it, where the store states one (store-metadata.ts) */
  cell?: TimeCell;
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
  time: TimeAxis | null;
}

export interface ArrayReader extends ZarrArrayInfo {
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
  /**
   * the array's frame-oriented copy (layout.ts FRAMES_OF), or null: the same values a step a
   * chunk, read instead of the array where a block holds fewer of its chunk values (zarr-source.ts)
   */
  frames: ArrayReader | null;
}

/** The array as callers see it: its description, without the reading state. */
export function arrayInfo(r: ArrayReader): ZarrArrayInfo {
  return {
    name: r.name,
    variable: r.variable,
    units: r.units,
    standardName: r.standardName,
    cellMethods: r.cellMethods,
    longName: r.longName,
    time: r.time && { ...r.time },
  };
}

export function makeReader(name: string, array: AnyArray, time: TimeAxis | null, rootAttrs: Attrs): ArrayReader {
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
    frames: null,
  };
}

/** The product a value at `timeMs` comes from: the forecast's from its start, else the analysis's. */
export function productAt(r: ArrayReader, timeMs: number): string {
  return r.forecastProduct !== null && timeMs >= r.forecastStartMs ? r.forecastProduct : r.product;
}

/** Where a copy reads (src, strides st/si/sj) and writes (dst, strides dt/di) an nt x ni x nj block. */
export interface CopyPlan {
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
export function converted(r: ArrayReader, raw: Float32Array): Float32Array {
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
export function copyConverted(r: ArrayReader, data: DecodedChunk['data'], out: Float32Array, p: CopyPlan): void {
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
