/**
 * The proleptic Gregorian calendar, UTC: which year, month, day, hour, minute and second name a
 * time, and the epoch milliseconds of one. ECMA-262 section 21.4.1 reckons its time values on this
 * calendar, the Gregorian rule carried back before 1582 and through year 0 (section 21.4.1.3).
 *
 * ECMA-262's Date.UTC takes any numbers and rolls them over (month 13 is January of the next year,
 * 31 February is 2 or 3 March, hour 24 the next day) and reads a year 0 to 99 as 1900 to 1999
 * (section 21.4.3.4, MakeFullYear); a time read that way is another time. Here a field out of its
 * range is refused and every year is read as itself.
 */

/** A field of a calendar date and time, largest first. */
export type CalendarField = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/**
 * The whole years a time value reaches: ECMA-262 section 21.4.1.1 takes 8.64e15 ms either side of
 * 1970-01-01T00:00:00Z, from -271821-04-20 to +275760-09-13, so these are the years held entirely.
 */
const FIRST_YEAR = -271_820;
const LAST_YEAR = 275_759;

/** Every fourth year, but of the centuries only every fourth (ECMA-262 section 21.4.1.3, DaysInYear). */
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in `month` (1-12) of `year`. */
function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const within = (n: number, first: number, last: number) => Number.isInteger(n) && n >= first && n <= last;

/**
 * The first field, largest first, that keeps these from being a calendar date and time, or null
 * when they are one. Month is 1-12, the day one the month has that year, hour 0-23, minute 0-59,
 * second 0-59: a leap second (60) has no time value of its own (ECMA-262 section 21.4.1.1 counts
 * every day as 86,400 s), so a caller that takes one says what it stands for.
 */
export function calendarFault(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): CalendarField | null {
  if (!within(year, FIRST_YEAR, LAST_YEAR)) return 'year';
  if (!within(month, 1, 12)) return 'month';
  if (!within(day, 1, daysInMonth(year, month))) return 'day';
  if (!within(hour, 0, 23)) return 'hour';
  if (!within(minute, 0, 59)) return 'minute';
  if (!within(second, 0, 59)) return 'second';
  return null;
}

/** Epoch milliseconds of a calendar date and time (UTC, month 1-12), or null when these are none (calendarFault). */
export function calendarMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number | null {
  if (calendarFault(year, month, day, hour, minute, second) !== null) return null;
  // setUTCFullYear, unlike Date.UTC, reads a year 0 to 99 as itself (ECMA-262 sections 21.4.3.4 and 21.4.4.29).
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}
