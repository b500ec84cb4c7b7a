/**
 * A structural TIFF reader for the tests, written from TIFF 6.0, GeoTIFF 1.1 and TIFF Technical
 * Notes 2 and 3 independently of the writer: it reads the directory, checks what it says, and
 * decodes tiles (DEFLATE, floating-point predictor) back to float32 bands.
 */
import { inflateSync } from 'node:zlib';

export interface TiffImage {
  tags: Map<number, number[] | string>;
  width: number;
  height: number;
  bands: number;
  /** per band, row-major height x width */
  band(b: number): Float32Array;
}

const SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 12: 8 };

export function readTiff(buf: Buffer): TiffImage {
  if (buf.toString('latin1', 0, 2) !== 'II' || buf.readUInt16LE(2) !== 42) throw new Error('not a little-endian classic TIFF');
  const ifd = buf.readUInt32LE(4);
  const count = buf.readUInt16LE(ifd);
  const tags = new Map<number, number[] | string>();
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const p = ifd + 2 + 12 * i;
    const tag = buf.readUInt16LE(p);
    if (tag <= previous) throw new Error(`tags out of order at ${tag}`);
    previous = tag;
    const type = buf.readUInt16LE(p + 2);
    const n = buf.readUInt32LE(p + 4);
    const size = SIZE[type]! * n;
    const at = size <= 4 ? p + 8 : buf.readUInt32LE(p + 8);
    if (type === 2) {
      const text = buf.toString('latin1', at, at + n);
      if (!text.endsWith('\0')) throw new Error(`ASCII tag ${tag} is not NUL-terminated`);
      tags.set(tag, text.slice(0, -1));
      continue;
    }
    const values: number[] = [];
    for (let k = 0; k < n; k++) {
      if (type === 3) values.push(buf.readUInt16LE(at + 2 * k));
      else if (type === 4) values.push(buf.readUInt32LE(at + 4 * k));
      else if (type === 12) values.push(buf.readDoubleLE(at + 8 * k));
      else throw new Error(`type ${type}`);
    }
    tags.set(tag, values);
  }
  if (buf.readUInt32LE(ifd + 2 + 12 * count) !== 0) throw new Error('more than one directory');
  const num = (tag: number) => (tags.get(tag) as number[])[0]!;
  const width = num(256);
  const height = num(257);
  const bands = num(277);
  const tw = num(322);
  const th = num(323);
  const offsets = tags.get(324) as number[];
  const counts = tags.get(325) as number[];
  const across = Math.ceil(width / tw);
  const down = Math.ceil(height / th);
  if (offsets.length !== across * down * bands) throw new Error('tile count');
  const predictor = tags.has(317) ? num(317) : 1;
  const band = (b: number) => {
    const out = new Float32Array(width * height);
    for (let ty = 0; ty < down; ty++) {
      for (let tx = 0; tx < across; tx++) {
        const i = b * across * down + ty * across + tx;
        const raw = inflateSync(buf.subarray(offsets[i]!, offsets[i]! + counts[i]!));
        if (raw.length !== tw * th * 4) throw new Error('tile size');
        for (let y = 0; y < th; y++) {
          const row = raw.subarray(y * tw * 4, (y + 1) * tw * 4);
          const values = new Float32Array(tw);
          if (predictor === 3) {
            // Undo the differencing, then gather each float's bytes from the planes, most significant first.
            for (let k = 1; k < row.length; k++) row[k] = (row[k]! + row[k - 1]!) & 0xff;
            const bytes = Buffer.alloc(4);
            for (let x = 0; x < tw; x++) {
              for (let k = 0; k < 4; k++) bytes[k] = row[k * tw + x]!;
              values[x] = bytes.readFloatBE(0);
            }
          } else {
            for (let x = 0; x < tw; x++) values[x] = row.readFloatLE(x * 4);
          }
          const gy = ty * th + y;
          if (gy >= height) continue;
          for (let x = 0; x < tw && tx * tw + x < width; x++) out[gy * width + tx * tw + x] = values[x]!;
        }
      }
    }
    return out;
  };
  return { tags, width, height, bands, band };
}

/** The GeoKeyDirectory as key id -> value (keys stored in the directory itself). */
export function geoKeys(image: TiffImage): { version: number[]; keys: Map<number, number> } {
  const dir = image.tags.get(34735) as number[];
  const keys = new Map<number, number>();
  for (let k = 0; k < dir[3]!; k++) {
    const [id, location, , value] = dir.slice(4 + 4 * k, 8 + 4 * k);
    if (location !== 0) throw new Error('key stored outside the directory');
    keys.set(id!, value!);
  }
  return { version: dir.slice(0, 3), keys };
}
