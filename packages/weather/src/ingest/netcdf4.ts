/**
 * NetCDF-4 files through h5wasm. NetCDF-4 is HDF5 with conventions (NetCDF Users Guide,
 * "NetCDF-4 Format"): dimensions are HDF5 dimension scales (HDF5 Dimension Scale
 * Specification), attached to each variable's axes; attributes are HDF5 attributes. Only the
 * root group is read: CF grids live there.
 */
import type { Dataset, File as H5File } from 'h5wasm/node';
import type { NcFile, NcVariable } from './cf-dataset.js';
import { IngestError } from './errors.js';

/** HDF5 and netCDF-4 bookkeeping attributes, not CF metadata. */
const INTERNAL_ATTRS = new Set([
  'DIMENSION_LIST',
  'REFERENCE_LIST',
  'CLASS',
  'NAME',
  '_Netcdf4Dimid',
  '_Netcdf4Coordinates',
  '_NCProperties',
  '_nc3_strict',
]);

type H5Attrs = Record<string, { value: unknown }>;

function attributes(attrs: H5Attrs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(attrs)) {
    if (INTERNAL_ATTRS.has(name)) continue;
    let v: unknown;
    try {
      v = a.value;
    } catch {
      continue;
    }
    // Scalars arrive as one-element typed arrays; CF attributes are scalars or vectors.
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      const arr = Array.from(v as unknown as ArrayLike<number | bigint>, Number);
      v = arr.length === 1 ? arr[0] : arr;
    } else if (typeof v === 'bigint') {
      v = Number(v);
    } else if (Array.isArray(v) && v.length === 1) {
      v = v[0];
    }
    out[name] = v;
  }
  return out;
}

/** HDF5 datatype classes (HDF5 File Format Specification IV.A.2.d, "Datatype Message"). */
const H5T_INTEGER = 0;
const H5T_FLOAT = 1;

function kindOf(meta: { type: number; size: number; vlen: boolean }): { kind: NcVariable['kind']; bits: number } {
  if (meta.vlen) return { kind: 'other', bits: 0 };
  if (meta.type === H5T_FLOAT) return { kind: 'float', bits: meta.size * 8 };
  if (meta.type === H5T_INTEGER) return { kind: 'int', bits: meta.size * 8 };
  return { kind: 'other', bits: 0 };
}

/**
 * h5wasm, loaded and ready on the first NetCDF-4 file read or written: importing it compiles
 * HDF5's WebAssembly (seconds), which every process and thread that imports this package would
 * otherwise pay at start.
 */
let h5wasmModule: Promise<typeof import('h5wasm/node').default> | undefined;
export function loadH5wasm(): Promise<typeof import('h5wasm/node').default> {
  h5wasmModule ??= import('h5wasm/node').then(async ({ default: h5wasm }) => {
    await h5wasm.ready;
    return h5wasm;
  });
  return h5wasmModule;
}

/**
 * Opens a NetCDF-4 file and reads its metadata; data are read later as hyperslabs (HDF5
 * H5Dread with a selection, h5wasm `Dataset.slice`), so only the requested block is in memory.
 * h5wasm's Node build reads the file from disk (Emscripten NODERAWFS) rather than loading it.
 * The caller closes the file.
 */
export async function readNetcdf4(file: string): Promise<NcFile> {
  const h5wasm = await loadH5wasm();
  let f: H5File;
  try {
    f = new h5wasm.File(file, 'r');
  } catch (err) {
    throw new IngestError(`${file}: HDF5 file could not be opened (${(err as Error).message})`);
  }
  try {
    return readOpen(f, h5wasm.Dataset);
  } catch (err) {
    f.close();
    throw err;
  }
}

function readOpen(f: H5File, DatasetClass: typeof Dataset): NcFile {
  let open = true;
  const check = () => {
    if (!open) throw new Error('NetCDF-4 file is closed');
  };
  const variables: NcVariable[] = [];
  for (const name of f.keys()) {
    const node = f.get(name);
    if (!(node instanceof DatasetClass)) continue;
    const shape = node.shape ?? [];
    const dims: string[] = [];
    for (let k = 0; k < shape.length; k++) {
      const scales = node.get_attached_scales(k);
      // A dimension scale is its own dimension; a variable's axes point at scales.
      const own = shape.length === 1 && scales.length === 0 && node.attrs['CLASS'] !== undefined ? name : undefined;
      dims.push(scales[0]?.replace(/^\//, '') ?? own ?? `phony_dim_${k}`);
    }
    const { kind, bits } = kindOf(node.metadata);
    const ds = node;
    variables.push({
      name,
      dims,
      shape,
      attrs: attributes(node.attrs as unknown as H5Attrs),
      kind,
      bits,
      read: async () => {
        check();
        return ds.value as ArrayLike<number | bigint>;
      },
      readBlock: async (start, count) => {
        check();
        if (shape.length === 0) return ds.value as ArrayLike<number | bigint>;
        return ds.slice(start.map((s, k) => [s, s + count[k]!])) as ArrayLike<number | bigint>;
      },
    });
  }
  return {
    format: 'netcdf4',
    attrs: attributes(f.attrs as unknown as H5Attrs),
    variables,
    close: async () => {
      if (open) f.close();
      open = false;
    },
  };
}
