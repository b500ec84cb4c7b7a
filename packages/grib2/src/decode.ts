/**
 * A field's values: section 7 unpacked by its data representation, scaled (regulation 92.9.4),
 * spread over the grid by the bitmap of section 6 (NaN where the bitmap has no value, and where
 * complex packing marks a value missing), and put in the grid's order (grid.ts).
 */
import { GribError } from './errors.js';
import { isGridOrder, toGridOrder } from './grid.js';
import type { GribField } from './message.js';
import type { Representation } from './representation.js';
import { decodeAec } from './packing/aec.js';
import { decodeComplex } from './packing/complex.js';
import { decodeJpeg2000Samples } from './packing/jpeg2000.js';
import { decodePngValues } from './packing/png.js';
import { constantField, decodeSimple, scaleInPlace, scaling } from './packing/simple.js';

/**
 * The field's values on its grid: rows north to south, west to east within a row (see LatLonGrid).
 * With `into` (ni x nj values) they are written there, so that a caller decoding message after
 * message of one grid reuses one array instead of leaving one per message to the collector.
 */
export async function decodeField(field: GribField, into?: Float32Array): Promise<Float32Array> {
  const { ni, nj } = field.grid;
  const points = ni * nj;
  if (field.gridPoints !== points) throw new GribError(`section 3 has ${field.gridPoints} points for a grid of ${ni} x ${nj}`);
  if (into && into.length !== points) throw new GribError(`an array of ${into.length} values for a grid of ${ni} x ${nj}`);
  const n = field.representation.numberOfValues;
  // Section 5's number of values (octets 6-9) sizes the unpacked array: it must be the grid's
  // points, or with a bitmap the points it sets (section 6, one bit per point), before any is made.
  if (!field.bitmap && n !== points) throw new GribError(`${n} values packed for a grid of ${points} points and no bitmap`);
  if (field.bitmap) {
    const set = bitsSet(field.bitmap, points);
    if (n !== set)
      throw new GribError(`bitmap (section 6) sets ${set} of ${points} points, section 5 octets 6-9 say ${n} values are packed`);
  }
  checkScaling(field.representation);
  // Unpacked straight into the result when nothing moves the values afterwards.
  const direct = !field.bitmap && isGridOrder(field.grid);
  const packed = await unpack(field, direct ? into : undefined);
  checkFinite(packed, field.representation);
  if (direct) return packed;
  if (!field.bitmap) return toGridOrder(packed, field.grid, into);
  if (isGridOrder(field.grid)) return applyBitmap(packed, field.bitmap, points, into);
  return toGridOrder(applyBitmap(packed, field.bitmap, points), field.grid, into);
}

const scaleFactors = (r: Representation) =>
  `binary scale factor ${r.binaryScale} and decimal scale factor ${r.decimalScale} (section 5 octets 16-19)`;

/**
 * Y = (R + X * 2^E) / 10^D (regulation 92.9.4) as offset + X * factor: factors that overflow a
 * double would make every value infinite, or NaN where X is 0 (read as "no value"), so they are
 * refused before any value is unpacked.
 */
function checkScaling(r: Representation): void {
  const { offset, factor } = scaling(r);
  if (!Number.isFinite(offset) || !Number.isFinite(factor))
    throw new GribError(`${scaleFactors(r)} scale the values beyond the largest single-precision number`);
}

/**
 * The values are single precision: a value the scale factors put beyond its largest number would
 * be stored as an infinity, which no field means. Refused rather than returned (an array given as
 * `into` may have been written and then holds no field). NaN is a missing value, left as it is.
 */
function checkFinite(values: Float32Array, r: Representation): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === Infinity || v === -Infinity)
      throw new GribError(`${scaleFactors(r)} scale value ${i + 1} beyond the largest single-precision number`);
  }
}

/** Each decoder checks the sizes it reads against section 7 before it makes its array (`out` if given). */
async function unpack(field: GribField, out?: Float32Array): Promise<Float32Array> {
  const r = field.representation;
  const n = r.numberOfValues;
  // Any packing with no bits per value holds a constant field: the reference value R itself, not
  // scaled by D (docs/decisions/0420: as NCEP's g2lib and ecCodes write and read it).
  if (r.bitsPerValue === 0 && r.template !== 2 && r.template !== 3) return constantField(r, n, out);
  switch (r.template) {
    case 0:
      return decodeSimple(field.data, r, n, out);
    case 2:
    case 3:
      return decodeComplex(field.data, r, r.complex!, n, out);
    case 40:
      return scaleInPlace(await decodeJpeg2000Samples(field.data, n, field.gridPoints, out), r);
    case 41:
      return decodePngValues(field.data, n, scaling(r).offset, scaling(r).factor, out);
    case 42: {
      const { flags, blockSize, referenceSampleInterval } = r.ccsds!;
      const samples = decodeAec(field.data, n, { bitsPerSample: r.bitsPerValue, blockSize, rsi: referenceSampleInterval, flags });
      const { offset, factor } = scaling(r);
      const values = out ?? new Float32Array(n);
      for (let i = 0; i < n; i++) values[i] = offset + samples[i]! * factor;
      return values;
    }
  }
}

/** Set bits among the first `points` of a bitmap (section 6 from octet 7, most significant bit first). */
function bitsSet(bitmap: Uint8Array, points: number): number {
  const whole = Math.floor(points / 8);
  let count = 0;
  for (let p = 0; p < whole; p++) count += ONES[bitmap[p]!]!;
  const rest = points - whole * 8;
  if (rest > 0) count += ONES[bitmap[whole]! >> (8 - rest)]!;
  return count;
}

/** Set bits in each octet. */
const ONES = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let x = b; x > 0; x >>= 1) n += x & 1;
  return n;
});

/** The packed values spread over the points the bitmap sets; `decodeField` has checked that it sets `packed.length` of them. */
function applyBitmap(packed: Float32Array, bitmap: Uint8Array, points: number, out: Float32Array = new Float32Array(points)): Float32Array {
  let k = 0;
  for (let i = 0; i < points; i++) out[i] = (bitmap[i >>> 3]! >> (7 - (i & 7))) & 1 ? packed[k++]! : NaN;
  return out;
}
