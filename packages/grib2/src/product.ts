/**
 * Product definition templates 4.0 (analysis or forecast at a point in time) and 4.8 (average,
 * accumulation, extreme or other statistically processed value over a time interval), WMO FM 92
 * GRIB2 section 4.
 */
import { int8, int32, uint16, uint32 } from './bits.js';
import { GribError } from './errors.js';
import { readTime } from './time.js';

/** A fixed surface (code table 4.5 type); value null when the message says "missing". */
export interface Surface {
  type: number;
  value: number | null;
}

/** One time range of a statistical process (template 4.8 octets 47-58). */
export interface StatisticalRange {
  /** Code table 4.10: 0 average, 1 accumulation, 2 maximum, 3 minimum, ... */
  process: number;
  /** Code table 4.11. */
  incrementType: number;
  /** Code table 4.4 unit and length of the range. */
  rangeUnit: number;
  rangeLength: number;
  incrementUnit: number;
  increment: number;
}

export interface Product {
  template: 0 | 8;
  /** Code table 4.1 and 4.2 (with the discipline of section 0). */
  category: number;
  number: number;
  /** Code table 4.3. */
  generatingProcess: number;
  /** Code table 4.4 unit of `forecastTime`. */
  timeUnit: number;
  /** For 4.8 the start of the interval, in `timeUnit`s after the reference time. */
  forecastTime: number;
  firstSurface: Surface;
  secondSurface: Surface;
  /** Template 4.8 only: the end of the overall interval (UTC ms) and its time ranges. */
  intervalEndMs?: number;
  statistics?: StatisticalRange[];
}

/** Seconds in each unit of code table 4.4 (the ones of fixed length). */
const TIME_UNIT_SECONDS: Record<number, number> = { 0: 60, 1: 3600, 2: 86400, 10: 3 * 3600, 11: 6 * 3600, 12: 12 * 3600, 13: 1 };

/** Seconds in `count` units of code table 4.4; months, years and decades have no fixed length. */
export function timeUnitSeconds(unit: number, count = 1): number {
  const seconds = TIME_UNIT_SECONDS[unit];
  if (seconds === undefined) throw new GribError(`time unit ${unit} (code table 4.4) has no fixed length`);
  return seconds * count;
}

function surface(t: Uint8Array, p: number): Surface {
  const type = t[p]!;
  const scaledValue = uint32(t, p + 2);
  if (type === 255 || (t[p + 1] === 255 && scaledValue === 0xffffffff)) return { type, value: null };
  // Scale factor and value are both sign-and-magnitude (92.1.5); value = scaled / 10^factor.
  const factor = t[p + 1] === 255 ? 0 : int8(t, p + 1);
  const value = int32(t, p + 2) / 10 ** factor;
  return { type, value: Number(value.toPrecision(12)) };
}

/** `t` is section 4 from its first octet; octet n of the WMO table is t[n - 1]. */
export function readProduct(t: Uint8Array): Product {
  const template = uint16(t, 7);
  if (template !== 0 && template !== 8)
    throw new GribError(`product definition template 4.${template} is not supported (only 4.0 and 4.8)`);
  // Template 4.0 has 34 octets; 4.8 has 46 and 12 for each time range (octet 42 counts them).
  const length = template === 0 ? 34 : 46 + 12 * (t[41] ?? 0);
  if (t.length < length) throw new GribError(`section 4 of ${t.length} octets, shorter than template 4.${template}'s ${length}`);
  const product: Product = {
    template,
    category: t[9]!,
    number: t[10]!,
    generatingProcess: t[11]!,
    timeUnit: t[17]!,
    forecastTime: int32(t, 18),
    firstSurface: surface(t, 22),
    secondSurface: surface(t, 28),
  };
  if (template === 8) {
    const n = t[41]!;
    product.intervalEndMs = readTime(t, 34, 'section 4 octets 35-41 (end of the overall time interval, template 4.8)');
    product.statistics = Array.from({ length: n }, (_, k) => {
      const p = 46 + 12 * k;
      return {
        process: t[p]!,
        incrementType: t[p + 1]!,
        rangeUnit: t[p + 2]!,
        rangeLength: uint32(t, p + 3),
        incrementUnit: t[p + 7]!,
        increment: uint32(t, p + 8),
      };
    });
  }
  return product;
}
