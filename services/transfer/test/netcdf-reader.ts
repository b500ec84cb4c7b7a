/**
 * NetCDF-4 files read back for the tests with h5wasm, the HDF5 library itself: dimensions as the
 * dimension scales netCDF-C takes them from (NetCDF Users Guide, "NetCDF-4 Format"), attributes
 * as stored, and every variable's values.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm, { type Dataset } from 'h5wasm/node';

type Attributes = Record<string, string | number[]>;

export interface NcVariable {
  name: string;
  dims: string[];
  shape: number[];
  /** h5wasm's dtype: '<f' float32, '<d' float64 */
  dtype: string;
  /** chunk shape, or null when stored contiguously */
  chunks: number[] | null;
  /** HDF5 filter ids (1: DEFLATE) */
  filters: number[];
  attributes: Attributes;
}

export interface NcFile {
  dims: { name: string; length: number }[];
  attributes: Attributes;
  variables: Record<string, NcVariable>;
  /** a variable's values, all of them */
  read(name: string): Float64Array | Float32Array;
}

/** The NAME netCDF-C gives a dimension scale that is a dimension only, before its length. */
const BARE_DIMENSION = 'This is a netCDF dimension but not a netCDF variable.';

/** HDF5's and netCDF-4's bookkeeping attributes, not the file's metadata. */
const BOOKKEEPING = new Set(['CLASS', 'NAME', 'DIMENSION_LIST', 'REFERENCE_LIST', '_Netcdf4Dimid', '_Netcdf4Coordinates', '_NCProperties']);

function attributesOf(node: { attrs: Record<string, { value: unknown }> }): Attributes {
  const out: Attributes = {};
  for (const [name, a] of Object.entries(node.attrs)) {
    if (BOOKKEEPING.has(name)) continue;
    const v = a.value;
    if (typeof v === 'string') out[name] = v;
    else if (typeof v === 'number') out[name] = [v];
    else if (ArrayBuffer.isView(v)) out[name] = Array.from(v as unknown as ArrayLike<number>, Number);
    else throw new Error(`attribute ${name} is neither text nor numbers`);
  }
  return out;
}

/** Reads a whole NetCDF-4 file from its bytes (h5wasm opens files by path, so they go through a temporary one). */
export async function readNetcdf4(bytes: Uint8Array): Promise<NcFile> {
  await h5wasm.ready;
  const dir = mkdtempSync(join(tmpdir(), 'transfer-nc-'));
  const path = join(dir, 'file.nc');
  writeFileSync(path, bytes);
  const file = new h5wasm.File(path, 'r');
  try {
    const dims: NcFile['dims'] = [];
    const variables: Record<string, NcVariable> = {};
    const values = new Map<string, Float64Array | Float32Array>();
    for (const name of file.keys()) {
      const ds = file.get(name);
      if (!(ds instanceof h5wasm.Dataset)) continue;
      const shape = ds.shape ?? [];
      const scale = ds.get_scale_name();
      // netCDF-C's mark of a dimension that has no coordinate variable: the dimension, named after the dataset.
      if (scale?.startsWith(BARE_DIMENSION)) {
        dims.push({ name, length: shape[0]! });
        continue;
      }
      if (scale) dims.push({ name: scale, length: shape[0]! });
      variables[name] = {
        name,
        dims: scale ? [scale] : shape.map((_, k) => ds.get_attached_scales(k)[0]?.replace(/^\//, '') ?? `phony_dim_${k}`),
        shape,
        dtype: String(ds.dtype),
        chunks: ds.metadata.chunks,
        filters: ds.filters.map((f) => f.id),
        attributes: attributesOf(ds as Dataset),
      };
      values.set(name, ds.value as Float64Array | Float32Array);
    }
    return {
      dims,
      attributes: attributesOf(file),
      variables,
      read: (name) => {
        const v = values.get(name);
        if (!v) throw new Error(`no variable ${name}`);
        return v;
      },
    };
  } finally {
    file.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
