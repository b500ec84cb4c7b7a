/**
 * Data representation 5.41 / data template 7.41: the packed integers as the samples of a PNG
 * image (WMO FM 92 GRIB2; PNG as ISO/IEC 15948). Grey images of 1-16 bits hold one value per
 * pixel; encoders write 24- and 32-bit values as RGB and RGBA of 8 bits, a value's octets most
 * significant first. The image's zlib stream is inflated by node:zlib; only the five row filters
 * of PNG §9 are undone here.
 */
import { inflateSync } from 'node:zlib';
import { uint32 } from '../bits.js';
import { GribError } from '../errors.js';

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
/** Samples per pixel by PNG colour type (§6.1): grey, RGB, indexed, grey+alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** The most octets an image's data inflate to: node's largest Buffer. */
const MAX_INFLATED = 2 ** 31 - 1;

/** The image's first `count` samples X as offset + X * factor. */
export function decodePngValues(png: Uint8Array, count: number, offset: number, factor: number, out?: Float32Array): Float32Array {
  if (SIGNATURE.some((b, i) => png[i] !== b)) throw new GribError('section 7 of a PNG-packed field is not a PNG image');
  let width = 0;
  let height = 0;
  let depth = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let p = 8; p + 8 <= png.length;) {
    const length = uint32(png, p);
    const type = String.fromCharCode(png[p + 4]!, png[p + 5]!, png[p + 6]!, png[p + 7]!);
    const body = png.subarray(p + 8, p + 8 + length);
    if (type === 'IHDR') {
      width = uint32(body, 0);
      height = uint32(body, 4);
      depth = body[8]!;
      channels = CHANNELS[body[9]!] ?? 0;
      if (body[9] === 3 || channels === 0) throw new GribError(`PNG colour type ${body[9]} cannot hold GRIB2 values`);
      if (body[12] !== 0) throw new GribError('interlaced PNG is not used by GRIB2 and not supported');
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    p += 12 + length;
  }
  const bitsPerPixel = depth * channels;
  if (bitsPerPixel > 32) throw new GribError(`PNG of ${bitsPerPixel} bits per pixel`);
  if (width * height < count) throw new GribError(`PNG of ${width} x ${height} pixels for ${count} values`);
  // The image data are its rows, each a filter octet and its pixels (PNG §7.2): inflated to that
  // length at most, so that what IHDR declares, not a small zlib stream, is what bounds the memory
  // used, and checked to reach it before the pixels are unfiltered and the values made.
  const rowBytes = Math.ceil((width * bitsPerPixel) / 8);
  const expected = height * (rowBytes + 1);
  if (expected > MAX_INFLATED)
    throw new GribError(`PNG of ${width} x ${height} pixels of ${bitsPerPixel} bits, more than ${MAX_INFLATED} octets`);
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: Math.max(1, expected) });
  } catch (err) {
    throw new GribError(
      `PNG image data of ${width} x ${height} pixels do not inflate: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (raw.length < expected) throw new GribError(`PNG image data is truncated: ${raw.length} octets inflated, ${expected} needed`);
  const pixels = unfilter(raw, rowBytes, height, Math.max(1, bitsPerPixel >> 3));
  const values = out ?? new Float32Array(count);

  if (bitsPerPixel >= 8) {
    // Rows of whole octets have no padding: value i starts at octet i * octets.
    const octets = bitsPerPixel >> 3;
    if (octets === 1) for (let i = 0; i < count; i++) values[i] = offset + pixels[i]! * factor;
    else {
      const view = new DataView(pixels.buffer, pixels.byteOffset, pixels.byteLength);
      if (octets === 2) for (let i = 0; i < count; i++) values[i] = offset + view.getUint16(2 * i) * factor;
      else if (octets === 3)
        for (let i = 0, p = 0; i < count; i++, p += 3) values[i] = offset + (view.getUint16(p) * 256 + view.getUint8(p + 2)) * factor;
      else for (let i = 0; i < count; i++) values[i] = offset + view.getUint32(4 * i) * factor;
    }
  } else {
    const mask = (1 << bitsPerPixel) - 1;
    for (let i = 0; i < count; i++) {
      const row = Math.floor(i / width);
      const bit = (i - row * width) * bitsPerPixel;
      const byte = pixels[row * rowBytes + (bit >> 3)]!;
      values[i] = offset + ((byte >> (8 - bitsPerPixel - (bit & 7))) & mask) * factor;
    }
  }
  return values;
}

/** PNG §9.2: each row starts with its filter type; returns the rows without it, unfiltered. */
function unfilter(raw: Uint8Array, rowBytes: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(rowBytes * height);
  // The row above the first is all zeros (§9.2).
  const zeroRow = new Uint8Array(rowBytes);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (rowBytes + 1)]!;
    const src = y * (rowBytes + 1) + 1;
    const at = y * rowBytes;
    const above = y > 0 ? out.subarray(at - rowBytes, at) : zeroRow;
    const row = out.subarray(at, at + rowBytes);
    const line = raw.subarray(src, src + rowBytes);
    switch (filter) {
      case 0:
        row.set(line);
        break;
      case 1:
        for (let x = 0; x < bpp; x++) row[x] = line[x]!;
        for (let x = bpp; x < rowBytes; x++) row[x] = line[x]! + row[x - bpp]!;
        break;
      case 2:
        for (let x = 0; x < rowBytes; x++) row[x] = line[x]! + above[x]!;
        break;
      case 3:
        for (let x = 0; x < bpp; x++) row[x] = line[x]! + (above[x]! >> 1);
        for (let x = bpp; x < rowBytes; x++) row[x] = line[x]! + ((row[x - bpp]! + above[x]!) >> 1);
        break;
      case 4:
        // Paeth with a = c = 0 for the first pixel picks b, the byte above.
        for (let x = 0; x < bpp; x++) row[x] = line[x]! + above[x]!;
        for (let x = bpp; x < rowBytes; x++) {
          const a = row[x - bpp]!;
          const b = above[x]!;
          const c = above[x - bpp]!;
          const pa = Math.abs(b - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + b - 2 * c);
          row[x] = line[x]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
        }
        break;
      default:
        throw new GribError(`PNG row filter ${filter}`);
    }
  }
  return out;
}
