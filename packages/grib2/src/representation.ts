/**
 * Data representation templates (WMO FM 92 GRIB2 section 5): 5.0 simple packing, 5.2 complex
 * packing, 5.3 complex packing with spatial differencing, 5.40 JPEG 2000, 5.41 PNG, 5.42 CCSDS.
 */
import { float32, int16, uint16, uint32 } from './bits.js';
import { GribError } from './errors.js';

export interface Scaling {
  /** Y = (R + X * 2^E) / 10^D (regulation 92.9.4). */
  reference: number;
  binaryScale: number;
  decimalScale: number;
  bitsPerValue: number;
  /** Code table 5.1: 0 floating point, 1 integer. */
  originalType: number;
}

/** Templates 5.2 and 5.3 (octets 22-49). */
export interface ComplexPacking {
  /** Code table 5.5: 0 none, 1 primary missing values, 2 primary and secondary. */
  missingManagement: number;
  groups: number;
  groupWidthReference: number;
  groupWidthBits: number;
  groupLengthReference: number;
  groupLengthIncrement: number;
  lastGroupLength: number;
  groupLengthBits: number;
  /** Template 5.3 only: order of spatial differencing (code table 5.6) and octets per extra descriptor. */
  spatialOrder: number;
  descriptorOctets: number;
}

export interface Ccsds {
  /** libaec's flags as CCSDS 121.0-B-3 parameters: preprocessing, restricted codes, padded RSIs, signed samples. */
  flags: number;
  blockSize: number;
  referenceSampleInterval: number;
}

export interface Representation extends Scaling {
  template: 0 | 2 | 3 | 40 | 41 | 42;
  /** Values packed in section 7 (grid points where the bitmap, if any, is set). */
  numberOfValues: number;
  complex?: ComplexPacking;
  ccsds?: Ccsds;
}

/** Octets in section 5 with each template. */
const TEMPLATE_LENGTHS: Record<number, number> = { 0: 21, 2: 47, 3: 49, 40: 23, 41: 21, 42: 25 };

/** `t` is section 5 from its first octet; octet n of the WMO table is t[n - 1]. */
export function readRepresentation(t: Uint8Array): Representation {
  const template = uint16(t, 9);
  const length = TEMPLATE_LENGTHS[template];
  if (length === undefined) {
    throw new GribError(`data representation template 5.${template} is not supported (5.0, 5.2, 5.3, 5.40, 5.41, 5.42 are)`);
  }
  if (t.length < length) throw new GribError(`section 5 of ${t.length} octets, shorter than template 5.${template}'s ${length}`);
  const r: Representation = {
    template: template as Representation['template'],
    numberOfValues: uint32(t, 5),
    reference: float32(t, 11),
    binaryScale: int16(t, 15),
    decimalScale: int16(t, 17),
    bitsPerValue: t[19]!,
    originalType: t[20]!,
  };
  // Regulation 92.6.4: R is an IEEE 754 single-precision number. NaN or an infinity is no value
  // to scale from: every decoded value would be NaN (read as "no value") or infinite.
  if (!Number.isFinite(r.reference)) {
    const name = Number.isNaN(r.reference) ? 'NaN' : r.reference > 0 ? '+Infinity' : '-Infinity';
    throw new GribError(`reference value (section 5 octets 12-15) is ${name}, not a finite IEEE 754 number`);
  }
  if (r.bitsPerValue > 32) throw new GribError(`${r.bitsPerValue} bits per value (at most 32 are read)`);
  if (template === 2 || template === 3) {
    r.complex = {
      missingManagement: t[22]!,
      groups: uint32(t, 31),
      groupWidthReference: t[35]!,
      groupWidthBits: t[36]!,
      groupLengthReference: uint32(t, 37),
      groupLengthIncrement: t[41]!,
      lastGroupLength: uint32(t, 42),
      groupLengthBits: t[46]!,
      spatialOrder: template === 3 ? t[47]! : 0,
      descriptorOctets: template === 3 ? t[48]! : 0,
    };
    if (r.complex.missingManagement > 2) throw new GribError(`missing value management ${r.complex.missingManagement} (code table 5.5)`);
    if (r.complex.spatialOrder > 2) throw new GribError(`order of spatial differencing ${r.complex.spatialOrder} (code table 5.6)`);
  }
  if (template === 42) r.ccsds = { flags: t[21]!, blockSize: t[22]!, referenceSampleInterval: uint16(t, 23) };
  return r;
}
