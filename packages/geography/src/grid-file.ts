// The committed geography file: a small binary header, then one Brotli stream per layer.
//
// Layout (all numbers little-endian):
//   magic        8 bytes  "FCGEOGR1"
//   nlon, nlat   u32, u32 cells along longitude and latitude
//   west, north  f64, f64 edges of the first cell (degrees)
//   step         f64     cell size in degrees, the same along both axes
//   layerCount   u32
//   per layer:   name (16 bytes ASCII, NUL padded), kind u8 (1 = int16, 2 = uint8, 3 = int8),
//                curve u8, scale f64, offset f64, byteLength u32
//   then the layers' Brotli streams in the same order.
//
// A stored integer s becomes a value by its curve: linear, s * scale + offset; square,
// sign(s) * (s * scale)^2 + offset, which keeps fine steps near zero and coarse ones far
// from it in one byte (used for distances, where a kilometre matters only near the coast).
//
// Rows run north to south, columns west to east; a cell's value belongs to its centre
// (lat = north - (row + 0.5) * step, lon = west + (col + 0.5) * step). Every layer is
// stored as differences along each row (modulo its width), int16 ones as two planes of low
// and high bytes, which lets Brotli find the runs of a smooth field; the decoder undoes both. Decoding uses only
// node:zlib, so the runtime needs nothing beyond Node.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

export const MAGIC = 'FCGEOGR1';

export type LayerKind = 'int16' | 'uint8' | 'int8';
export type LayerCurve = 'linear' | 'square';

export interface GridShape {
  nlon: number;
  nlat: number;
  west: number;
  north: number;
  step: number;
}

export type StoredValues = Int16Array | Uint8Array | Int8Array;

export interface LayerEncoding {
  name: string;
  kind: LayerKind;
  curve: LayerCurve;
  scale: number;
  offset: number;
}

export interface EncodedLayer extends LayerEncoding {
  /** Stored integers, row-major, nlon * nlat of them. */
  values: StoredValues;
}

export type DecodedLayer = EncodedLayer;

/** The value a stored integer stands for. */
export function storedToValue(layer: LayerEncoding, stored: number): number {
  if (layer.curve === 'linear') return stored * layer.scale + layer.offset;
  const root = stored * layer.scale;
  return (stored < 0 ? -root * root : root * root) + layer.offset;
}

/** The stored integer nearest to a value (the derivation's quantiser), clamped to the kind. */
export function valueToStored(layer: LayerEncoding, value: number): number {
  const v = value - layer.offset;
  const s = layer.curve === 'linear' ? v / layer.scale : (Math.sign(v) * Math.sqrt(Math.abs(v))) / layer.scale;
  const [lo, hi] = layer.kind === 'int16' ? [-32768, 32767] : layer.kind === 'int8' ? [-128, 127] : [0, 255];
  return Math.max(lo, Math.min(hi, Math.round(s)));
}

export interface GridFile {
  shape: GridShape;
  layers: Map<string, DecodedLayer>;
}

const NAME_BYTES = 16;
const FIXED_HEADER = 8 + 4 + 4 + 8 + 8 + 8 + 4;
const LAYER_HEADER = NAME_BYTES + 1 + 1 + 8 + 8 + 4;

const KIND_CODES: Record<LayerKind, number> = { int16: 1, uint8: 2, int8: 3 };
const CURVE_CODES: Record<LayerCurve, number> = { linear: 0, square: 1 };

function byteRowDeltas(values: Uint8Array, nlon: number): Uint8Array {
  const out = new Uint8Array(values.length);
  for (let start = 0; start < values.length; start += nlon) {
    let previous = 0;
    for (let i = start; i < start + nlon; i++) {
      out[i] = (values[i]! - previous) & 0xff;
      previous = values[i]!;
    }
  }
  return out;
}

function undoByteRowDeltas(deltas: Uint8Array, nlon: number): Uint8Array {
  const out = new Uint8Array(deltas.length);
  for (let start = 0; start < deltas.length; start += nlon) {
    let previous = 0;
    for (let i = start; i < start + nlon; i++) {
      previous = (previous + deltas[i]!) & 0xff;
      out[i] = previous;
    }
  }
  return out;
}

function rowDeltaPlanes(values: Int16Array, nlon: number): Uint8Array {
  const n = values.length;
  const planes = new Uint8Array(2 * n);
  for (let start = 0; start < n; start += nlon) {
    let previous = 0;
    for (let i = start; i < start + nlon; i++) {
      const v = values[i]!;
      // int16 wrap-around keeps the round trip exact for any difference.
      const delta = (v - previous) & 0xffff;
      previous = v;
      planes[i] = delta & 0xff;
      planes[n + i] = delta >> 8;
    }
  }
  return planes;
}

function undoRowDeltaPlanes(planes: Uint8Array, nlon: number): Int16Array {
  const n = planes.length / 2;
  const values = new Int16Array(n);
  for (let start = 0; start < n; start += nlon) {
    let previous = 0;
    for (let i = start; i < start + nlon; i++) {
      previous = (previous + (planes[i]! | (planes[n + i]! << 8))) & 0xffff;
      values[i] = (previous << 16) >> 16;
    }
  }
  return values;
}

/** Encodes a grid; the derivation script writes its output with this, tests with fixtures. */
export function encodeGridFile(shape: GridShape, layers: readonly EncodedLayer[]): Buffer {
  const cells = shape.nlon * shape.nlat;
  const streams = layers.map((layer) => {
    if (layer.values.length !== cells) {
      throw new Error(`layer ${layer.name}: ${layer.values.length} values for ${cells} cells`);
    }
    const expected = { int16: Int16Array, uint8: Uint8Array, int8: Int8Array }[layer.kind];
    if (!(layer.values instanceof expected)) {
      throw new Error(`layer ${layer.name}: ${layer.kind} layer needs an ${expected.name}`);
    }
    const v = layer.values;
    const raw =
      v instanceof Int16Array
        ? rowDeltaPlanes(v, shape.nlon)
        : byteRowDeltas(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), shape.nlon);
    return brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
  });

  const header = Buffer.alloc(FIXED_HEADER + LAYER_HEADER * layers.length);
  header.write(MAGIC, 0, 'ascii');
  header.writeUInt32LE(shape.nlon, 8);
  header.writeUInt32LE(shape.nlat, 12);
  header.writeDoubleLE(shape.west, 16);
  header.writeDoubleLE(shape.north, 24);
  header.writeDoubleLE(shape.step, 32);
  header.writeUInt32LE(layers.length, 40);
  layers.forEach((layer, k) => {
    const at = FIXED_HEADER + k * LAYER_HEADER;
    if (layer.name.length > NAME_BYTES || !/^[\x20-\x7e]+$/.test(layer.name)) {
      throw new Error(`layer name ${JSON.stringify(layer.name)} must be 1-${NAME_BYTES} ASCII characters`);
    }
    header.write(layer.name, at, 'ascii');
    header.writeUInt8(KIND_CODES[layer.kind], at + NAME_BYTES);
    header.writeUInt8(CURVE_CODES[layer.curve], at + NAME_BYTES + 1);
    header.writeDoubleLE(layer.scale, at + NAME_BYTES + 2);
    header.writeDoubleLE(layer.offset, at + NAME_BYTES + 10);
    header.writeUInt32LE(streams[k]!.length, at + NAME_BYTES + 18);
  });
  return Buffer.concat([header, ...streams]);
}

/** Each layer's name and compressed size in bytes, read from the header alone. */
export function layerSizes(bytes: Uint8Array): Array<{ name: string; bytes: number }> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = buf.readUInt32LE(40);
  return Array.from({ length: count }, (_, k) => {
    const at = FIXED_HEADER + k * LAYER_HEADER;
    return { name: buf.toString('ascii', at, at + NAME_BYTES).replace(/\0+$/, ''), bytes: buf.readUInt32LE(at + NAME_BYTES + 18) };
  });
}

/** The grid's shape, read from the header alone; throws on a foreign file. */
export function gridShapeOf(bytes: Uint8Array): GridShape {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < FIXED_HEADER || buf.toString('ascii', 0, 8) !== MAGIC) {
    throw new Error('not a Fieldcast geography grid file');
  }
  return {
    nlon: buf.readUInt32LE(8),
    nlat: buf.readUInt32LE(12),
    west: buf.readDoubleLE(16),
    north: buf.readDoubleLE(24),
    step: buf.readDoubleLE(32),
  };
}

/** Decodes what {@link encodeGridFile} wrote; throws on a truncated or foreign file. */
export function decodeGridFile(bytes: Uint8Array): GridFile {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shape = gridShapeOf(bytes);
  const count = buf.readUInt32LE(40);
  const cells = shape.nlon * shape.nlat;
  let streamAt = FIXED_HEADER + count * LAYER_HEADER;
  if (buf.length < streamAt) throw new Error('geography grid file: truncated header');
  const layers = new Map<string, DecodedLayer>();
  for (let k = 0; k < count; k++) {
    const at = FIXED_HEADER + k * LAYER_HEADER;
    const name = buf.toString('ascii', at, at + NAME_BYTES).replace(/\0+$/, '');
    const code = buf.readUInt8(at + NAME_BYTES);
    const curveCode = buf.readUInt8(at + NAME_BYTES + 1);
    const scale = buf.readDoubleLE(at + NAME_BYTES + 2);
    const offset = buf.readDoubleLE(at + NAME_BYTES + 10);
    const length = buf.readUInt32LE(at + NAME_BYTES + 18);
    const curve = (Object.keys(CURVE_CODES) as LayerCurve[]).find((c) => CURVE_CODES[c] === curveCode);
    if (!curve) throw new Error(`geography grid file: layer ${name} has unknown curve ${curveCode}`);
    if (streamAt + length > buf.length) throw new Error(`geography grid file: layer ${name} truncated`);
    const raw = brotliDecompressSync(buf.subarray(streamAt, streamAt + length));
    streamAt += length;
    const kind = (Object.keys(KIND_CODES) as LayerKind[]).find((c) => KIND_CODES[c] === code);
    if (!kind) throw new Error(`geography grid file: layer ${name} has unknown kind ${code}`);
    const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
    if (raw.length !== (kind === 'int16' ? 2 : 1) * cells) {
      throw new Error(`geography grid file: layer ${name} has the wrong size`);
    }
    let values: StoredValues;
    if (kind === 'int16') values = undoRowDeltaPlanes(bytes, shape.nlon);
    else {
      const plain = undoByteRowDeltas(bytes, shape.nlon);
      values = kind === 'int8' ? new Int8Array(plain.buffer) : plain;
    }
    layers.set(name, { name, kind, curve, scale, offset, values });
  }
  return { shape, layers };
}
