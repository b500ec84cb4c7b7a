/**
 * Times as GRIB2 writes them: year (2 octets), month, day, hour, minute, second (1 octet each),
 * UTC - section 1 octets 13-19 (the reference time) and template 4.8 octets 35-41 (the end of the
 * overall time interval), WMO Manual on Codes, FM 92 GRIB edition 2.
 *
 * Date.UTC takes any numbers and rolls them over (month 13 is January of the next year, 31
 * February is 2 or 3 March, hour 24 the next day) and reads years 0-99 as 1900-1999; a time
 * decoded that way is another time, so a field that is not a calendar date and time is refused.
 */
import { uint16 } from './bits.js';
import { GribError } from './errors.js';

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in `month` (1-12) of `year`, proleptic Gregorian. */
function daysIn(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Why these are not a calendar date and time (UTC), or null when they are one. */
function notATime(year: number, month: number, day: number, hour: number, minute: number, second: number): string | null {
  if (month < 1 || month > 12) return `month ${month}`;
  if (day < 1 || day > daysIn(year, month)) return `day ${day}`;
  if (hour > 23) return `hour ${hour}`;
  if (minute > 59) return `minute ${minute}`;
  if (second > 59) return `second ${second}`;
  return null;
}

/**
 * The time (UTC ms) of these fields, null when they are not a calendar date and time. Second 60
 * is refused too: a leap second has no epoch millisecond of its own, and the sources write whole
 * hours.
 */
export function utcTime(year: number, month: number, day: number, hour: number, minute = 0, second = 0): number | null {
  if (notATime(year, month, day, hour, minute, second) !== null) return null;
  // setUTCFullYear takes years 0-99 as they are, where Date.UTC would add 1900; the day was checked against this year.
  return new Date(Date.UTC(2000, month - 1, day, hour, minute, second)).setUTCFullYear(year);
}

/** The time (UTC ms) of the seven octets from `t[at]`; `where` names them for the refusal, as "section 1 octets 13-19". */
export function readTime(t: Uint8Array, at: number, where: string): number {
  const year = uint16(t, at);
  const [month, day, hour, minute, second] = [t[at + 2]!, t[at + 3]!, t[at + 4]!, t[at + 5]!, t[at + 6]!];
  const ms = utcTime(year, month, day, hour, minute, second);
  if (ms === null)
    throw new GribError(
      `${where}: ${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)} is not a date and time (${notATime(year, month, day, hour, minute, second)})`,
    );
  return ms;
}
