/**
 * The proleptic Gregorian calendar (ECMA-262 section 21.4.1): the golden times are POSIX times
 * (IEEE Std 1003.1-2017, Base Definitions section 4.16, seconds since the Epoch) times 1000.
 */
import { calendarFault, calendarMs } from '../src/index.js';

describe('calendarMs', () => {
  it.each([
    ['the Epoch', [1970, 1, 1], 0],
    // POSIX time 946684800, the start of 2000
    ['2000-01-01', [2000, 1, 1], 946_684_800_000],
    // 2000 is a leap year: a century divisible by 400
    ['2000-02-29', [2000, 2, 29], 951_782_400_000],
    ['2024-02-29T18:00:00', [2024, 2, 29, 18], 1_709_229_600_000],
    ['the last second of 9999', [9999, 12, 31, 23, 59, 59], 253_402_300_799_000],
    // RFC 3339's first date-time, 0000-01-01T00:00:00Z: POSIX time -62167219200
    ['0000-01-01, year 0 as itself', [0, 1, 1], -62_167_219_200_000],
    // year 0 is a leap year of the proleptic calendar (divisible by 400), so 29 February 0000 exists
    ['0000-02-29', [0, 2, 29], -62_162_121_600_000],
    // year 99 stays 99, where Date.UTC(99, 0, 1) is 1999-01-01 (915148800 s)
    ['0099-01-01, not 1999', [99, 1, 1], -59_042_995_200_000],
    // the first and last whole years of ECMA-262's time values (section 21.4.1.1)
    ['-271820-01-01', [-271_820, 1, 1], -8_639_977_881_600_000],
    ['+275759-12-31T23:59:59', [275_759, 12, 31, 23, 59, 59], 8_639_977_881_599_000],
  ])('%s', (_name, fields, ms) => {
    const [year, month, day, hour, minute, second] = fields as [number, number, number, number?, number?, number?];
    expect(calendarMs(year, month, day, hour, minute, second)).toBe(ms);
    expect(calendarFault(year, month, day, hour, minute, second)).toBeNull();
  });

  it('agrees with ISO 8601 text read by Date.parse, which takes a four-digit year as itself', () => {
    for (const year of [0, 1, 4, 99, 100, 400, 1582, 1600, 1900, 1970, 2024, 9999])
      for (const month of [1, 2, 3, 12])
        expect(calendarMs(year, month, 1, 13, 14, 15)).toBe(
          Date.parse(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01T13:14:15Z`),
        );
  });
});

describe('calendarFault: the first field, largest first, that is none', () => {
  it.each([
    // 1900 is no leap year: a century not divisible by 400
    ['29 February 1900', [1900, 2, 29], 'day'],
    ['29 February of a common year', [2023, 2, 29], 'day'],
    ['29 February 0100 (a century)', [100, 2, 29], 'day'],
    ['31 April', [2024, 4, 31], 'day'],
    ['31 February', [2024, 2, 31], 'day'],
    ['day 0', [2024, 3, 0], 'day'],
    ['month 0', [2024, 0, 15], 'month'],
    ['month 13', [2024, 13, 15], 'month'],
    ['month 13 before day 40', [2024, 13, 40], 'month'],
    // 24:00 of ISO 8601 is the next day's start: another time, so refused
    ['hour 24', [2024, 3, 14, 24], 'hour'],
    ['hour -1', [2024, 3, 14, -1], 'hour'],
    ['minute 60', [2024, 3, 15, 5, 60], 'minute'],
    // a leap second has no time value of its own (ECMA-262 section 21.4.1.1)
    ['second 60', [2024, 3, 15, 5, 59, 60], 'second'],
    ['a fraction of a second', [2024, 3, 15, 5, 59, 1.5], 'second'],
    ['a fraction of a day', [2024, 3, 1.5], 'day'],
    ['a year past the time values', [275_760, 1, 1], 'year'],
    ['a year before them', [-271_821, 12, 31], 'year'],
    ['not a number', [Number.NaN, 1, 1], 'year'],
  ])('%s', (_name, fields, fault) => {
    const [year, month, day, hour, minute, second] = fields as [number, number, number, number?, number?, number?];
    expect(calendarFault(year, month, day, hour, minute, second)).toBe(fault);
    expect(calendarMs(year, month, day, hour, minute, second)).toBeNull();
  });
});
