/**
 * A PNG encoder for 8-bit RGBA images (W3C PNG Specification, Third Edition; ISO/IEC 15948):
 * the signature, IHDR (colour type 6, bit depth 8, no interlace), one IDAT of the filtered
 * scanlines deflated with zlib (RFC 1950/1951), and IEND, each chunk closed by its CRC-32.
 */
import { constants, deflate, deflateSync, type ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';

const deflateAsync = promisify(deflate);

/**
 * Run-length matches only (zlib Z_RLE, as pngjs does): after filtering, a tile's flat areas and
 * smooth gradients are long runs of equal bytes, which RLE finds at a fraction of the default
 * strategy's cost.
 */
const DEFLATE: ZlibOptions = { level: 9, strategy: constants.Z_RLE };

/** PNG §5.2: the eight bytes every PNG file starts with. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG Annex D: the table of the CRC-32 of every byte value (polynomial 0xEDB88320, reflected). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** PNG §5.3: CRC-32 of the chunk type and data. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** PNG §5.3: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** PNG §9.4: the Paeth predictor. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

const BYTES_PER_PIXEL = 4;

/** The filtered byte of filter `type` (PNG §9.2) from the raw byte and its left, up and up-left neighbours. */
function filtered(type: number, raw: number, left: number, up: number, upLeft: number): number {
  switch (type) {
    case 0:
      return raw;
    case 1:
      return (raw - left) & 0xff;
    case 2:
      return (raw - up) & 0xff;
    case 3:
      return (raw - ((left + up) >> 1)) & 0xff;
    default:
      return (raw - paeth(left, up, upLeft)) & 0xff;
  }
}

/** A filtered byte as the signed value whose magnitude the heuristic sums. */
function magnitude(byte: number): number {
  return byte < 128 ? byte : 256 - byte;
}

/**
 * PNG §9: each scanline prefixed by its filter type. The filter is chosen per line by the
 * heuristic PNG §12.8 recommends: the smallest sum of the filtered bytes taken as signed values.
 * One pass sums all five filters, a second writes the chosen one.
 */
function filterScanlines(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = width * BYTES_PER_PIXEL;
  const out = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const line = y * stride;
    const prior = line - stride;
    let none = 0,
      sub = 0,
      up = 0,
      average = 0,
      paethSum = 0;
    for (let i = 0; i < stride; i++) {
      const raw = rgba[line + i]!;
      const a = i >= BYTES_PER_PIXEL ? rgba[line + i - BYTES_PER_PIXEL]! : 0;
      const b = y > 0 ? rgba[prior + i]! : 0;
      const c = y > 0 && i >= BYTES_PER_PIXEL ? rgba[prior + i - BYTES_PER_PIXEL]! : 0;
      none += magnitude(raw);
      sub += magnitude((raw - a) & 0xff);
      up += magnitude((raw - b) & 0xff);
      average += magnitude((raw - ((a + b) >> 1)) & 0xff);
      paethSum += magnitude((raw - paeth(a, b, c)) & 0xff);
    }
    const sums = [none, sub, up, average, paethSum];
    const type = sums.indexOf(Math.min(...sums));
    const target = y * (stride + 1);
    out[target] = type;
    for (let i = 0; i < stride; i++) {
      const a = i >= BYTES_PER_PIXEL ? rgba[line + i - BYTES_PER_PIXEL]! : 0;
      const b = y > 0 ? rgba[prior + i]! : 0;
      const c = y > 0 && i >= BYTES_PER_PIXEL ? rgba[prior + i - BYTES_PER_PIXEL]! : 0;
      out[target + 1 + i] = filtered(type, rgba[line + i]!, a, b, c);
    }
  }
  return out;
}

function header(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: truecolour with alpha
  ihdr[10] = 0; // compression method: deflate
  ihdr[11] = 0; // filter method: adaptive
  ihdr[12] = 0; // no interlace
  return ihdr;
}

function checkImage(rgba: Uint8Array, width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || rgba.length !== width * height * 4) {
    throw new RangeError(`an RGBA image of ${width} x ${height} needs ${width * height * 4} bytes, not ${rgba.length}`);
  }
}

function assemble(width: number, height: number, compressed: Uint8Array): Buffer {
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header(width, height)), chunk('IDAT', compressed), chunk('IEND', new Uint8Array(0))]);
}

/** Encodes an RGBA image (row-major, 4 bytes a pixel, top row first); the deflate runs on libuv's thread pool. */
export async function encodePng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  checkImage(rgba, width, height);
  return assemble(width, height, await deflateAsync(filterScanlines(rgba, width, height), DEFLATE));
}

/** encodePng on the calling thread. */
export function encodePngSync(rgba: Uint8Array, width: number, height: number): Buffer {
  checkImage(rgba, width, height);
  return assemble(width, height, deflateSync(filterScanlines(rgba, width, height), DEFLATE));
}
