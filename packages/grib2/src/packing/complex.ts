/**
 * Data representations 5.2 and 5.3 / data templates 7.2 and 7.3: complex packing in groups, with
 * optional spatial differencing of order 1 or 2 (WMO FM 92 GRIB2, regulation 92.9.4 and the notes
 * of templates 5.2, 5.3 and 7.3; the method is Glahn's, WMO GRIB2 guide "complex packing").
 *
 * Section 7 holds, each array starting on an octet boundary: (5.3 only) the first one or two
 * original values and the overall minimum of the differences, in `descriptorOctets` octets each
 * (the minimum in sign-and-magnitude); the groups' reference values; their widths; their lengths;
 * then every group's values back to back. With missing value management (code table 5.5) a value
 * of all ones in its group's width is the primary missing value and all ones less one the secondary;
 * in a group of width zero, a reference of all ones (less one) marks the whole group.
 */
import { dataBits, readBits, signMagnitude, tooFewBits, unpackIntegers, unpackUints, viewOf } from '../bits.js';
import { GribError } from '../errors.js';
import type { ComplexPacking, Scaling } from '../representation.js';
import { constantField, scaling } from './simple.js';

export function decodeComplex(data: Uint8Array, s: Scaling, c: ComplexPacking, count: number, out?: Float32Array): Float32Array {
  // No groups: g2lib's constant field (cmplxpack), R the value (docs/decisions/0420).
  if (c.groups === 0) return constantField(s, count, out);
  const ng = c.groups;
  const available = dataBits(data);

  // Every size below is checked against section 7 (and section 5's number of values) before an
  // array is made of it or a loop runs over it: the number of groups (section 5 octets 32-35) can
  // say 2^32 - 1 in a message of a few hundred octets.
  if (c.groupWidthBits > 32) throw new GribError(`${c.groupWidthBits} bits per group width (section 5 octet 37): at most 32 are read`);
  if (c.groupLengthBits > 32)
    throw new GribError(`${c.groupLengthBits} bits per scaled group length (section 5 octet 47): at most 32 are read`);
  // Values of more than 48 bits would not be read exactly; differences of 32-bit values need 5 octets at most.
  if (c.descriptorOctets > 6)
    throw new GribError(`${c.descriptorOctets} octets per extra descriptor (section 5 octet 49): at most 6 are read`);
  if (c.spatialOrder > 0 && c.descriptorOctets === 0) throw new GribError('spatial differencing with no octets for its extra descriptors');
  // Template 7.3 (7.2 without the descriptors): the first one or two values and the minimum, then
  // every group's reference, width and length, each array starting on an octet; then the values.
  const octetAfter = (b: number) => Math.ceil(b / 8) * 8;
  const descriptorBits = c.spatialOrder > 0 ? (c.spatialOrder + 1) * c.descriptorOctets * 8 : 0;
  const widthsAt = octetAfter(descriptorBits + s.bitsPerValue * ng);
  const lengthsAt = octetAfter(widthsAt + c.groupWidthBits * ng);
  const valuesAt = octetAfter(lengthsAt + c.groupLengthBits * ng);
  if (valuesAt > available) {
    const bits = `${s.bitsPerValue} + ${c.groupWidthBits} + ${c.groupLengthBits} bits (section 5 octets 20, 37, 47)`;
    throw tooFewBits(`the references, widths and lengths of ${ng} groups (section 5 octets 32-35) of ${bits}`, valuesAt, available);
  }
  // Group splitting (template 5.2 octet 22; Glahn's method) divides the values among the groups,
  // each holding at least one: more groups than values is a corrupt count even when the groups'
  // references, widths and lengths take no bits.
  if (ng > Math.max(count, 1)) throw new GribError(`${ng} groups (section 5 octets 32-35) for ${count} values (section 5 octets 6-9)`);

  let first = 0;
  let second = 0;
  let minimum = 0;
  if (c.spatialOrder > 0) {
    const n = c.descriptorOctets * 8;
    first = readBits(data, 0, n);
    if (c.spatialOrder === 2) second = readBits(data, n, n);
    minimum = signMagnitude(readBits(data, c.spatialOrder * n, n), n);
  }

  const references = unpackUints(data, descriptorBits, s.bitsPerValue, ng);
  const widths = unpackUints(data, widthsAt, c.groupWidthBits, ng);
  const lengths = unpackUints(data, lengthsAt, c.groupLengthBits, ng);

  // Sums of the lengths and widths as read, before the Uint32Arrays would wrap them.
  let total = 0;
  let totalBits = 0;
  let widest = 0;
  for (let g = 0; g < ng; g++) {
    const w = widths[g]! + c.groupWidthReference;
    const len = g === ng - 1 ? c.lastGroupLength : c.groupLengthReference + lengths[g]! * c.groupLengthIncrement;
    widths[g] = w;
    lengths[g] = len;
    if (w > widest) widest = w;
    total += len;
    totalBits += w * len;
  }
  if (total !== count) throw new GribError(`complex packing groups hold ${total} values, section 5 says ${count}`);
  if (widest > 32) throw new GribError(`complex packing group of ${widest} bits (section 5 octet 36 plus its width): at most 32 are read`);
  if (valuesAt + totalBits > available)
    throw tooFewBits(
      `the references, widths and lengths, then the ${count} values of the groups at their widths (section 5 octet 36 plus each group's)`,
      valuesAt + totalBits,
      available,
    );

  // The integers are unpacked into doubles, exactly: a group reference (up to 32 bits, section 5
  // octet 20) plus a value of up to 32 bits, and the differences of template 7.3, pass float32's
  // 2^24 and would be rounded before the scaling (ecCodes scales exact C longs). Each value is
  // scaled and rounded to float32 once, at the end. NaN marks a missing value (code table 5.5).
  const ints = new Float64Array(count);
  let bit = valuesAt;
  const missing = c.missingManagement;
  const allOnesRef = 2 ** s.bitsPerValue - 1;
  const view = viewOf(data);
  let hasMissing = false;
  let at = 0;
  for (let g = 0; g < ng; g++) {
    const w = widths[g]!;
    const len = lengths[g]!;
    const ref = references[g]!;
    if (w === 0) {
      const isMissing = missing > 0 && (ref === allOnesRef || (missing === 2 && ref === allOnesRef - 1));
      ints.fill(isMissing ? NaN : ref, at, at + len);
      hasMissing ||= isMissing;
    } else if (missing === 0) {
      unpackIntegers(view, bit, w, len, ints, at, ref);
      bit += w * len;
    } else {
      unpackIntegers(view, bit, w, len, ints, at, 0);
      bit += w * len;
      const primary = 2 ** w - 1;
      const secondary = missing === 2 ? primary - 1 : -1;
      for (let i = at; i < at + len; i++) {
        const x = ints[i]!;
        if (x === primary || x === secondary) {
          ints[i] = NaN;
          hasMissing = true;
        } else ints[i] = x + ref;
      }
    }
    at += len;
  }

  const values = out ?? new Float32Array(count);
  if (c.spatialOrder > 0) undoDifferences(ints, values, s, c.spatialOrder, first, second, minimum, hasMissing);
  else {
    const { offset, factor } = scaling(s);
    for (let i = 0; i < count; i++) values[i] = offset + ints[i]! * factor;
  }
  return values;
}

/**
 * Template 7.3 note: the packed values are differences of order 1 (f[i] - f[i-1]) or 2
 * (f[i] - 2 f[i-1] + f[i-2]) less their minimum, taken over the values that are not missing;
 * the first one or two places hold no difference and take the original values from the descriptors.
 * The differences and their running sums are exact in float64; each value is scaled and stored
 * once, NaN where missing.
 */
function undoDifferences(
  ints: Float64Array,
  values: Float32Array,
  s: Scaling,
  order: number,
  first: number,
  second: number,
  minimum: number,
  hasMissing: boolean,
): void {
  const { offset, factor } = scaling(s);
  const n = ints.length;
  let i = 0;
  // Missing values (NaN) are passed over: the differences run over the values that are not missing.
  const next = (): number => {
    while (hasMissing && i < n && ints[i] !== ints[i]) values[i++] = NaN;
    return i;
  };
  // The first one or two values that are not missing come from the descriptors.
  let previous = first;
  let beforePrevious = 0;
  if (next() < n) values[i++] = offset + first * factor;
  if (order === 2 && next() < n) {
    values[i++] = offset + second * factor;
    beforePrevious = first;
    previous = second;
  }
  if (order === 1) {
    for (; i < n; i++) {
      const d = ints[i]!;
      if (hasMissing && d !== d) {
        values[i] = NaN;
        continue;
      }
      previous += d + minimum;
      values[i] = offset + previous * factor;
    }
  } else {
    for (; i < n; i++) {
      const d = ints[i]!;
      if (hasMissing && d !== d) {
        values[i] = NaN;
        continue;
      }
      const v = d + minimum + 2 * previous - beforePrevious;
      beforePrevious = previous;
      previous = v;
      values[i] = offset + v * factor;
    }
  }
}
