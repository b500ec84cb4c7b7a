/** Data representation 5.0 / data template 7.0: simple packing (WMO FM 92 GRIB2, regulation 92.9.4). */
import { dataBits, tooFewBits, unpackInto, viewOf } from '../bits.js';
import type { Scaling } from '../representation.js';

/** Y = (R + X * 2^E) / 10^D, computed in place over the packed integers X (NaN stays NaN). */
export function scaleInPlace(values: Float32Array, s: Scaling): Float32Array {
  const { offset, factor } = scaling(s);
  for (let i = 0; i < values.length; i++) values[i] = offset + values[i]! * factor;
  return values;
}

/** The offset and factor of Y = offset + X * factor. */
export function scaling(s: Scaling): { offset: number; factor: number } {
  const decimal = 10 ** -s.decimalScale;
  return { offset: s.reference * decimal, factor: 2 ** s.binaryScale * decimal };
}

/**
 * A field that packs no values (no bits per value; complex packing with no groups) is constant,
 * and its value is the reference value R as it stands, whatever D says (docs/decisions/0420):
 * NCEP's g2lib and ECMWF's ecCodes, which write GFS and ECMWF fields, write R unscaled there and
 * read it back unscaled, where regulation 92.9.4 read literally would divide it by 10^D.
 */
export function constantField(s: Scaling, count: number, out?: Float32Array): Float32Array {
  return (out ?? new Float32Array(count)).fill(s.reference);
}

/** Data template 7.0: `count` values of `bitsPerValue` bits back to back from section 7's sixth octet. */
export function decodeSimple(data: Uint8Array, s: Scaling, count: number, out?: Float32Array): Float32Array {
  // Checked before the array is made: section 7 must hold every value's bits (template 7.0).
  const needed = count * s.bitsPerValue;
  const available = dataBits(data);
  if (needed > available)
    throw tooFewBits(`${count} values (section 5 octets 6-9) of ${s.bitsPerValue} bits (section 5 octet 20)`, needed, available);
  const values = out ?? new Float32Array(count);
  const { offset, factor } = scaling(s);
  unpackInto(viewOf(data), 0, s.bitsPerValue, count, values, 0, offset, factor);
  return values;
}
