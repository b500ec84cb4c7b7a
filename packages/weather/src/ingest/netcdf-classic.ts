/**
 * NetCDF classic and 64-bit offset files through netcdfjs (NetCDF file format specification,
 * "The NetCDF Classic Format Specification"). netcdfjs reads whole variables into memory,
 * which bounds the file size this path takes; NetCDF-4 (h5wasm) is the path for large files.
 */
import { promises as fs } from 'node:fs';
import { NetCDFReader } from 'netcdfjs';
import type { NcFile, NcVariable } from './cf-dataset.js';

const KIND: Record<string, { kind: NcVariable['kind']; bits: number }> = {
  byte: { kind: 'int', bits: 8 },
  short: { kind: 'int', bits: 16 },
  int: { kind: 'int', bits: 32 },
  float: { kind: 'float', bits: 32 },
  double: { kind: 'float', bits: 64 },
  char: { kind: 'other', bits: 8 },
};

function attributes(list: Array<{ name: string; value: unknown }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list) out[a.name] = a.value;
  return out;
}

export async function readNetcdfClassic(file: string): Promise<NcFile> {
  const reader = new NetCDFReader(await fs.readFile(file));
  const dims = reader.dimensions;
  const recordLength = reader.recordDimension.length;
  const recordId = reader.recordDimension.id;
  const variables: NcVariable[] = reader.variables.map((v) => {
    const names = v.dimensions.map((id) => dims[id]?.name ?? `dim${id}`);
    const shape = v.dimensions.map((id) => (id === recordId ? recordLength : (dims[id]?.size ?? 0)));
    const k = KIND[v.type] ?? { kind: 'other' as const, bits: 0 };
    return {
      name: v.name,
      dims: names,
      shape,
      attrs: attributes(v.attributes as Array<{ name: string; value: unknown }>),
      kind: k.kind,
      bits: k.bits,
      read: () => {
        // Record variables come back one array per record; the size counts every element.
        const data = reader.getDataVariable(v) as Array<number | number[]>;
        const flat = v.record ? (data.flat() as number[]) : (data as number[]);
        const size = shape.reduce((a, b) => a * b, 1);
        // netcdfjs sizes non-record data from vsize, which the format pads to 4 bytes.
        return flat.length > size ? flat.slice(0, size) : flat;
      },
    };
  });
  return { format: 'netcdf-classic', attrs: attributes(reader.globalAttributes as Array<{ name: string; value: unknown }>), variables };
}
