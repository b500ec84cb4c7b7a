/**
 * NetCDF classic and 64-bit offset files (NetCDF file format specification, "The NetCDF
 * Classic Format Specification"). netcdfjs parses the header; data are read here straight
 * from the file by offset, a block at a time, so ingest never holds a whole variable (or the
 * whole file) in memory.
 *
 * Layout (same specification): a non-record variable's values are contiguous from its `begin`
 * offset in C order, big endian; a record variable has one slab per record, records `recsize`
 * bytes apart (the sum of the record variables' padded vsizes), except that a file with a
 * single record variable of type byte, char or short does not pad it.
 */
import { promises as fs } from 'node:fs';
import { NetCDFReader } from 'netcdfjs';
import type { NcFile, NcVariable } from './cf-dataset.js';

type Decoder = (view: DataView, byteOffset: number) => number;
type Values = Int8Array | Int16Array | Int32Array | Float32Array | Float64Array;

const KIND: Record<string, { kind: NcVariable['kind']; bits: number; read?: Decoder; array?: (n: number) => Values }> = {
  byte: { kind: 'int', bits: 8, read: (d, o) => d.getInt8(o), array: (n) => new Int8Array(n) },
  short: { kind: 'int', bits: 16, read: (d, o) => d.getInt16(o, false), array: (n) => new Int16Array(n) },
  int: { kind: 'int', bits: 32, read: (d, o) => d.getInt32(o, false), array: (n) => new Int32Array(n) },
  float: { kind: 'float', bits: 32, read: (d, o) => d.getFloat32(o, false), array: (n) => new Float32Array(n) },
  double: { kind: 'float', bits: 64, read: (d, o) => d.getFloat64(o, false), array: (n) => new Float64Array(n) },
  char: { kind: 'other', bits: 8 },
};

function attributes(list: Array<{ name: string; value: unknown }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list) out[a.name] = a.value;
  return out;
}

/** The header alone: netcdfjs parses from a buffer, so read a growing prefix until it parses. */
async function readHeader(fh: fs.FileHandle, size: number): Promise<NetCDFReader> {
  for (let n = Math.min(size, 1 << 16); ; n = Math.min(size, n * 4)) {
    const buf = Buffer.alloc(n);
    await fh.read(buf, 0, n, 0);
    try {
      return new NetCDFReader(buf);
    } catch (err) {
      // A header cut short runs off the end of the prefix (a RangeError from the DataView).
      if (n >= size) throw err;
    }
  }
}

export async function readNetcdfClassic(file: string): Promise<NcFile> {
  const fh = await fs.open(file, 'r');
  try {
    return await readOpen(fh, (await fh.stat()).size);
  } catch (err) {
    await fh.close();
    throw err;
  }
}

async function readOpen(fh: fs.FileHandle, size: number): Promise<NcFile> {
  const reader = await readHeader(fh, size);
  const dims = reader.dimensions;
  const recordLength = reader.recordDimension.length;
  const recordId = reader.recordDimension.id;
  const recordVars = reader.variables.filter((v) => v.record);
  let open = true;

  const variables: NcVariable[] = reader.variables.map((v) => {
    const names = v.dimensions.map((id) => dims[id]?.name ?? `dim${id}`);
    const shape = v.dimensions.map((id) => (id === recordId ? recordLength : (dims[id]?.size ?? 0)));
    const k = KIND[v.type] ?? { kind: 'other' as const, bits: 0 };
    const elSize = k.bits / 8;
    // Byte distance between neighbours along each axis.
    const strides = shape.map((_, a) => elSize * shape.slice(a + 1).reduce((x, y) => x * y, 1));
    if (v.record && strides.length > 0) {
      const single = recordVars.length === 1 && elSize < 4;
      strides[0] = single ? strides[0]! : (reader.recordDimension.recordStep ?? strides[0]!);
    }
    const readBlock = async (start: readonly number[], count: readonly number[]): Promise<ArrayLike<number>> => {
      if (!open) throw new Error('NetCDF file is closed');
      const decode = k.read;
      if (!decode) throw new Error(`${v.name}: type ${v.type} is not numeric`);
      const rank = shape.length;
      const total = count.reduce((a, b) => a * b, 1);
      const out = k.array!(total);
      if (total === 0) return out;
      // The trailing axes read in one run of bytes: the last axis, plus the one before it, as
      // long as neither is the record axis (records are recsize apart, not contiguous). A run of
      // two axes spans whole rows between its first and last row.
      const inner = Math.min(v.record ? rank - 1 : rank, 2);
      const outer = rank - inner;
      const rows = inner === 2 ? count[rank - 2]! : 1;
      const cols = inner >= 1 ? count[rank - 1]! : 1;
      const rowStride = inner === 2 ? strides[rank - 2]! : 0;
      const runBytes = (rows - 1) * rowStride + cols * elSize;
      const buf = Buffer.alloc(runBytes);
      const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      const index = start.slice(0, outer);
      let o = 0;
      for (;;) {
        let pos = v.offset;
        for (let a = 0; a < rank; a++) pos += (a < outer ? index[a]! : start[a]!) * strides[a]!;
        const { bytesRead } = await fh.read(buf, 0, runBytes, pos);
        if (bytesRead < runBytes) throw new Error(`${v.name}: file ends inside its data (truncated?)`);
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[o++] = decode(view, r * rowStride + c * elSize);
        let a = outer - 1;
        for (; a >= 0; a--) {
          index[a] = index[a]! + 1;
          if (index[a]! < start[a]! + count[a]!) break;
          index[a] = start[a]!;
        }
        if (a < 0) return out;
      }
    };
    return {
      name: v.name,
      dims: names,
      shape,
      attrs: attributes(v.attributes as Array<{ name: string; value: unknown }>),
      kind: k.kind,
      bits: k.bits,
      read: () =>
        readBlock(
          shape.map(() => 0),
          shape,
        ),
      readBlock,
    };
  });
  return {
    format: 'netcdf-classic',
    attrs: attributes(reader.globalAttributes as Array<{ name: string; value: unknown }>),
    variables,
    close: async () => {
      if (open) await fh.close();
      open = false;
    },
  };
}
