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
import { readBits, signMagnitude, unpackInto, unpackUints, viewOf } from '../bits.js';
import { GribError } from '../errors.js';
import type { ComplexPacking, Scaling } from '../representation.js';
import { scaleInPlace, scaling } from './simple.js';

export function decodeComplex(
  data: Uint8Array,
  s: Scaling,
  c: ComplexPacking,
  count: number,
  values: Float32Array = new Float32Array(count),
): Float32Array {
  if (c.groups === 0) return scaleInPlace(values.fill(0), s);
  const bytes = data;
  let bit = 0;

  let first = 0;
  let second = 0;
  let minimum = 0;
  if (c.spatialOrder > 0) {
    const n = c.descriptorOctets * 8;
    if (n === 0) throw new GribError('spatial differencing with no octets for its extra descriptors');
    first = readBits(bytes, bit, n);
    bit += n;
    if (c.spatialOrder === 2) {
      second = readBits(bytes, bit, n);
      bit += n;
    }
    minimum = signMagnitude(readBits(bytes, bit, n), n);
    bit += n;
  }

  const ng = c.groups;
  const align = (b: number) => (b + 7) & ~7;
  const references = unpackUints(bytes, bit, s.bitsPerValue, ng);
  bit = align(bit + s.bitsPerValue * ng);
  const widths = unpackUints(bytes, bit, c.groupWidthBits, ng);
  bit = align(bit + c.groupWidthBits * ng);
  const lengths = unpackUints(bytes, bit, c.groupLengthBits, ng);
  bit = align(bit + c.groupLengthBits * ng);

  let total = 0;
  let totalBits = 0;
  for (let g = 0; g < ng; g++) {
    widths[g] = widths[g]! + c.groupWidthReference;
    lengths[g] = g === ng - 1 ? c.lastGroupLength : c.groupLengthReference + lengths[g]! * c.groupLengthIncrement;
    total += lengths[g]!;
    totalBits += widths[g]! * lengths[g]!;
  }
  if (total !== count) throw new GribError(`complex packing groups hold ${total} values, section 5 says ${count}`);
  if (bit + totalBits > data.length * 8) throw new GribError('complex packing groups run past the end of section 7');
  if (widths.some((w) => w > 32)) throw new GribError('complex packing group wider than 32 bits');

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
      values.fill(isMissing ? NaN : ref, at, at + len);
      hasMissing ||= isMissing;
    } else if (missing === 0) {
      unpackInto(view, bit, w, len, values, at, ref);
      bit += w * len;
    } else {
      unpackInto(view, bit, w, len, values, at);
      bit += w * len;
      const primary = 2 ** w - 1;
      const secondary = missing === 2 ? primary - 1 : -1;
      for (let i = at; i < at + len; i++) {
        const x = values[i]!;
        if (x === primary || x === secondary) {
          values[i] = NaN;
          hasMissing = true;
        } else values[i] = x + ref;
      }
    }
    at += len;
  }

  if (c.spatialOrder > 0) undoDifferences(values, s, c.spatialOrder, first, second, minimum, hasMissing);
  else scaleInPlace(values, s);
  return values;
}

/**
 * Template 7.3 note: the packed values are differences of order 1 (f[i] - f[i-1]) or 2
 * (f[i] - 2 f[i-1] + f[i-2]) less their minimum, taken over the values that are not missing;
 * the first one or two places hold no difference and take the original values from the descriptors.
 * The running sums are kept in float64 and each value is scaled and stored once.
 */
function undoDifferences(
  values: Float32Array,
  s: Scaling,
  order: number,
  first: number,
  second: number,
  minimum: number,
  hasMissing: boolean,
): void {
  const { offset, factor } = scaling(s);
  let i = 0;
  const next = (): number => {
    while (hasMissing && i < values.length && values[i] !== values[i]) i++;
    return i;
  };
  // The first one or two values that are not missing come from the descriptors.
  let previous = first;
  let beforePrevious = 0;
  if (next() < values.length) values[i++] = offset + first * factor;
  if (order === 2 && next() < values.length) {
    values[i++] = offset + second * factor;
    beforePrevious = first;
    previous = second;
  }
  const n = values.length;
  if (order === 1) {
    for (; i < n; i++) {
      const d = values[i]!;
      if (hasMissing && d !== d) continue;
      previous += d + minimum;
      values[i] = offset + previous * factor;
    }
  } else {
    for (; i < n; i++) {
      const d = values[i]!;
      if (hasMissing && d !== d) continue;
      const v = d + minimum + 2 * previous - beforePrevious;
      beforePrevious = previous;
      previous = v;
      values[i] = offset + v * factor;
    }
  }
}
