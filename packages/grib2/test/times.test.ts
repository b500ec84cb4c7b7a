/**
 * Times in a message (WMO Manual on Codes, FM 92 GRIB edition 2): section 1 octets 13-19 (the
 * reference time) and product template 4.8 octets 35-41 (the end of the overall time interval),
 * year in 2 octets then month, day, hour, minute and second. A field that is no calendar date and
 * time is refused naming its section and octets, never rolled over into another time.
 */
import { GribError, readFields } from '../src/index.js';
import { type GridSpec, type MessageSpec, encodeMessage } from './encode.js';

const GRID: GridSpec = { ni: 4, nj: 3, lat1: 50, lon1: 0, dLat: 1, dLon: 1 };
const T0 = Date.UTC(2024, 2, 15, 6);

const message = (spec: Partial<MessageSpec> = {}) =>
  encodeMessage(new Float64Array(GRID.ni * GRID.nj).fill(280), {
    grid: GRID,
    packing: { template: 0, decimal: 1 },
    referenceTimeMs: T0,
    forecastHours: 12,
    ...spec,
  });
const accumulation = () => message({ category: 1, number: 8, surface: { type: 1, value: 0 }, statistic: { process: 1, rangeHours: 6 } });

/** Offset of section `number` (each section opens with its length, 4 octets, and its number, 1). */
function sectionAt(m: Uint8Array, number: number): number {
  const view = new DataView(m.buffer, m.byteOffset, m.byteLength);
  for (let p = 16; p < m.length - 4; p += view.getUint32(p)) if (m[p + 4] === number) return p;
  throw new Error(`no section ${number}`);
}

/** The message with the time at octet `octet` (counted from 1) of section `number` set to these seven fields. */
function withTime(m: Uint8Array, number: number, octet: number, [year, month, day, hour, minute, second]: number[]): Uint8Array {
  const copy = Uint8Array.from(m);
  const at = sectionAt(copy, number) + octet - 1;
  new DataView(copy.buffer).setUint16(at, year!);
  copy.set([month!, day!, hour!, minute!, second!], at + 2);
  return copy;
}

const NOT_TIMES: Array<[string, number[], string]> = [
  ['month 13', [2024, 13, 15, 6, 0, 0], '2024-13-15 06:00:00 is not a date and time (month 13)'],
  ['month 0', [2024, 0, 15, 6, 0, 0], '2024-00-15 06:00:00 is not a date and time (month 0)'],
  ['day 0', [2024, 3, 0, 6, 0, 0], '2024-03-00 06:00:00 is not a date and time (day 0)'],
  ['31 February', [2024, 2, 31, 6, 0, 0], '2024-02-31 06:00:00 is not a date and time (day 31)'],
  ['29 February of a common year', [2023, 2, 29, 0, 0, 0], '2023-02-29 00:00:00 is not a date and time (day 29)'],
  ['29 February 1900 (not a leap year)', [1900, 2, 29, 0, 0, 0], '1900-02-29 00:00:00 is not a date and time (day 29)'],
  ['31 April', [2024, 4, 31, 0, 0, 0], '2024-04-31 00:00:00 is not a date and time (day 31)'],
  ['hour 24', [2024, 3, 14, 24, 0, 0], '2024-03-14 24:00:00 is not a date and time (hour 24)'],
  ['hour 30 of the day before (would roll over onto the run)', [2024, 3, 14, 30, 0, 0], '(hour 30)'],
  ['minute 60', [2024, 3, 15, 5, 60, 0], '2024-03-15 05:60:00 is not a date and time (minute 60)'],
  ['second 60', [2024, 3, 15, 5, 59, 60], '2024-03-15 05:59:60 is not a date and time (second 60)'],
  ['all octets missing (255)', [0xffff, 255, 255, 255, 255, 255], '65535-255-255 255:255:255 is not a date and time (month 255)'],
];

describe('section 1 reference time (octets 13-19)', () => {
  it.each(NOT_TIMES)('%s is refused with a GribError naming the octets', (_name, time, refusal) => {
    const bytes = withTime(message(), 1, 13, time);
    expect(() => readFields(bytes)).toThrow(GribError);
    expect(() => readFields(bytes)).toThrow(`message at byte 0: section 1 octets 13-19 (reference time): `);
    expect(() => readFields(bytes)).toThrow(refusal);
  });

  it.each([
    ['29 February of a leap year', [2024, 2, 29, 18, 0, 0], Date.UTC(2024, 1, 29, 18)],
    ['29 February 2000 (a leap year)', [2000, 2, 29, 0, 0, 0], Date.UTC(2000, 1, 29)],
    ['the last second of a year', [2025, 12, 31, 23, 59, 59], Date.UTC(2025, 11, 31, 23, 59, 59)],
    ['year 99, not 1999', [99, 1, 1, 0, 0, 0], new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(99)],
  ])('%s is read as it is', (_name, time, ms) => {
    expect(readFields(withTime(message(), 1, 13, time))[0]!.referenceTimeMs).toBe(ms);
  });
});

describe('template 4.8 end of the overall time interval (section 4 octets 35-41)', () => {
  it('is read', () => {
    expect(readFields(accumulation())[0]!.product.intervalEndMs).toBe(T0 + 12 * 3_600_000);
  });

  it.each(NOT_TIMES)('%s is refused with a GribError naming the octets', (_name, time, refusal) => {
    const bytes = withTime(accumulation(), 4, 35, time);
    expect(() => readFields(bytes)).toThrow(GribError);
    expect(() => readFields(bytes)).toThrow(`section 4 octets 35-41 (end of the overall time interval, template 4.8): `);
    expect(() => readFields(bytes)).toThrow(refusal);
  });
});
