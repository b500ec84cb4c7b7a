/**
 * Data representation 5.40 / data template 7.40: the packed integers as the samples of a JPEG 2000
 * code stream (WMO FM 92 GRIB2; ISO/IEC 15444-1). Decoded by OpenJPEG compiled to WebAssembly
 * (@cornerstonejs/codec-openjpeg, docs/decisions/0220-grib2-decoding.md), whose decoder returns
 * samples of up to 16 bits (little-endian when wider than 8).
 */
import { createRequire } from 'node:module';
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

export async function decodeJpeg2000Samples(
  codestream: Uint8Array,
  count: number,
  out: Float32Array = new Float32Array(count),
): Promise<Float32Array> {
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
    if (info.bitsPerSample > 8) {
      const view = new DataView(decoded.buffer, decoded.byteOffset, decoded.byteLength);
      for (let i = 0; i < count; i++) out[i] = view.getUint16(2 * i, true);
    } else out.set(decoded.subarray(0, count));
    return out;
  } finally {
    decoder.delete();
  }
}
