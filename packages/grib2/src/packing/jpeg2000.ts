/**
 * Data representation 5.40 / data template 7.40: the packed integers as the samples of a JPEG 2000
 * code stream (WMO FM 92 GRIB2; ISO/IEC 15444-1). Decoded by OpenJPEG compiled to WebAssembly
 * (@cornerstonejs/codec-openjpeg, docs/decisions/0220-grib2-decoding.md), whose decoder returns
 * samples of up to 16 bits (little-endian when wider than 8).
 */
import { createRequire } from 'node:module';
import { uint16, uint32 } from '../bits.js';
import { GribError } from '../errors.js';

interface FrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned: boolean;
}
interface J2KDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  getDecodedBuffer(): Uint8Array;
  decode(): void;
  getFrameInfo(): FrameInfo;
  delete(): void;
}
interface OpenJpegModule {
  J2KDecoder: new () => J2KDecoder;
}

let openjpeg: Promise<OpenJpegModule> | undefined;

/** The WebAssembly module, compiled once per process. */
function loadOpenJpeg(): Promise<OpenJpegModule> {
  if (!openjpeg) {
    const require = createRequire(import.meta.url);
    const factory = require('@cornerstonejs/codec-openjpeg/decodewasmjs') as (options: object) => Promise<OpenJpegModule>;
    // OpenJPEG reports its progress through Emscripten's print; a decoder stays quiet.
    openjpeg = factory({ print: () => undefined, printErr: () => undefined });
  }
  return openjpeg;
}

/**
 * The code stream's first `count` samples. Its image size, components and sample depth are read
 * from its SIZ marker segment and checked before OpenJPEG decodes it, since OpenJPEG allocates
 * what they declare: an image of at most `limit` samples (the grid's points) is decoded.
 */
export async function decodeJpeg2000Samples(
  codestream: Uint8Array,
  count: number,
  limit = count,
  out?: Float32Array,
): Promise<Float32Array> {
  checkSiz(codestream, count, limit);
  const module = await loadOpenJpeg();
  const decoder = new module.J2KDecoder();
  try {
    decoder.getEncodedBuffer(codestream.length).set(codestream);
    try {
      decoder.decode();
    } catch (err) {
      throw new GribError(`JPEG 2000 code stream does not decode: ${String(err)}`);
    }
    const info = decoder.getFrameInfo();
    if (info.componentCount !== 1) throw new GribError(`JPEG 2000 image of ${info.componentCount} components (GRIB2 uses one)`);
    if (info.bitsPerSample > 16) throw new GribError(`JPEG 2000 samples of ${info.bitsPerSample} bits (at most 16 are decoded)`);
    if (info.width * info.height < count) throw new GribError(`JPEG 2000 image of ${info.width} x ${info.height} for ${count} values`);
    const decoded = decoder.getDecodedBuffer();
    const values = out ?? new Float32Array(count);
    if (info.bitsPerSample > 8) {
      const view = new DataView(decoded.buffer, decoded.byteOffset, decoded.byteLength);
      for (let i = 0; i < count; i++) values[i] = view.getUint16(2 * i, true);
    } else values.set(decoded.subarray(0, count));
    return values;
  } finally {
    decoder.delete();
  }
}

/**
 * ISO/IEC 15444-1 A.4.1 and A.5.1: a code stream opens with SOC (0xFF4F) and SIZ (0xFF51), whose
 * Xsiz, Ysiz, XOsiz, YOsiz (octets 8-23) give the image area, Csiz (octets 40-41) the components
 * and Ssiz (octet 42) the first component's depth less one (its high bit the sign).
 */
function checkSiz(codestream: Uint8Array, count: number, limit: number): void {
  if (codestream.length < 43 || uint32(codestream, 0) !== 0xff4fff51)
    throw new GribError('section 7 of a JPEG 2000-packed field is not a JPEG 2000 code stream (no SOC and SIZ markers)');
  const width = uint32(codestream, 8) - uint32(codestream, 16);
  const height = uint32(codestream, 12) - uint32(codestream, 20);
  const components = uint16(codestream, 40);
  const bits = (codestream[42]! & 0x7f) + 1;
  if (width <= 0 || height <= 0 || width * height < count)
    throw new GribError(`JPEG 2000 image of ${width} x ${height} for ${count} values`);
  if (width * height > limit) throw new GribError(`JPEG 2000 image of ${width} x ${height}, more samples than the grid's ${limit} points`);
  if (components !== 1) throw new GribError(`JPEG 2000 image of ${components} components (GRIB2 uses one)`);
  if (bits > 16) throw new GribError(`JPEG 2000 samples of ${bits} bits (at most 16 are decoded)`);
}
