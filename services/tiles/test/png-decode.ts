/**
 * A small PNG decoder for tests (W3C PNG Specification): checks the signature and every chunk's
 * CRC, inflates the IDAT data and reverses the five scanline filters. 8-bit RGBA only, the one
 * form the tiles area writes.
 */
import { inflateSync } from 'node:zlib';
import { crc32, PNG_SIGNATURE } from '../src/domain/png.js';

export interface DecodedPng {
  width: number;
  height: number;
  rgba: Uint8Array;
  chunks: string[];
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a),
    pb = Math.abs(p - b),
    pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

export function decodePng(png: Buffer): DecodedPng {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG signature');
  let offset = 8;
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let width = 0,
    height = 0;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    if (crc !== crc32(png.subarray(offset + 4, offset + 8 + length))) throw new Error(`bad CRC in ${type}`);
    chunks.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 6 || data[12] !== 0) throw new Error('not 8-bit RGBA, non-interlaced');
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= 4 ? rgba[y * stride + i - 4]! : 0;
      const b = y > 0 ? rgba[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= 4 ? rgba[(y - 1) * stride + i - 4]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new Error(`unknown filter ${filter}`);
      rgba[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  return { width, height, rgba, chunks };
}

/** The RGBA of pixel (row, column). */
export function pixelAt(png: DecodedPng, row: number, column: number): [number, number, number, number] {
  const o = (row * png.width + column) * 4;
  return [png.rgba[o]!, png.rgba[o + 1]!, png.rgba[o + 2]!, png.rgba[o + 3]!];
}
