/**
 * A field's values: section 7 unpacked by its data representation, scaled (regulation 92.9.4),
 * spread over the grid by the bitmap of section 6 (NaN where the bitmap has no value, and where
 * complex packing marks a value missing), and put in the grid's order (grid.ts).
 */
import { GribError } from './errors.js';
import { toGridOrder } from './grid.js';
import type { GribField } from './message.js';
import { decodeAec } from './packing/aec.js';
import { decodeComplex } from './packing/complex.js';
import { decodeJpeg2000Samples } from './packing/jpeg2000.js';
import { decodePngValues } from './packing/png.js';
import { decodeSimple, scaleInPlace, scaling } from './packing/simple.js';

/** The field's values on its grid: rows north to south, west to east within a row (see LatLonGrid). */
export async function decodeField(field: GribField): Promise<Float32Array> {
  const packed = await unpack(field);
  const spread = field.bitmap ? applyBitmap(packed, field.bitmap, field.gridPoints) : packed;
  if (spread.length !== field.grid.ni * field.grid.nj) {
    throw new GribError(`${spread.length} values for a grid of ${field.grid.ni} x ${field.grid.nj}`);
  }
  return toGridOrder(spread, field.grid);
}

async function unpack(field: GribField): Promise<Float32Array> {
  const r = field.representation;
  const n = r.numberOfValues;
  // Any packing with no bits per value holds a constant field, the reference value (92.9.4).
  if (r.bitsPerValue === 0 && r.template !== 2 && r.template !== 3) return scaleInPlace(new Float32Array(n), r);
  switch (r.template) {
    case 0:
      return decodeSimple(field.data, r, n);
    case 2:
    case 3:
      return decodeComplex(field.data, r, r.complex!, n);
    case 40:
      return scaleInPlace(await decodeJpeg2000Samples(field.data, n), r);
    case 41:
      return decodePngValues(field.data, n, scaling(r).offset, scaling(r).factor);
    case 42: {
      const { flags, blockSize, referenceSampleInterval } = r.ccsds!;
      const samples = decodeAec(field.data, n, { bitsPerSample: r.bitsPerValue, blockSize, rsi: referenceSampleInterval, flags });
      const values = new Float32Array(n);
      const { offset, factor } = scaling(r);
      for (let i = 0; i < n; i++) values[i] = offset + samples[i]! * factor;
      return values;
    }
  }
}

function applyBitmap(packed: Float32Array, bitmap: Uint8Array, points: number): Float32Array {
  const out = new Float32Array(points);
  let k = 0;
  for (let i = 0; i < points; i++) {
    if ((bitmap[i >>> 3]! >> (7 - (i & 7))) & 1) {
      if (k >= packed.length) throw new GribError(`bitmap sets more points than the ${packed.length} values packed`);
      out[i] = packed[k++]!;
    } else out[i] = NaN;
  }
  if (k !== packed.length) throw new GribError(`bitmap sets ${k} points for ${packed.length} values packed`);
  return out;
}
