/**
 * Times as GRIB2 writes them: year (2 octets), month, day, hour, minute, second (1 octet each),
 * UTC - section 1 octets 13-19 (the reference time) and template 4.8 octets 35-41 (the end of the
 * overall time interval), WMO Manual on Codes, FM 92 GRIB edition 2.
 *
 * A time decoded with Date.UTC's rollover (month 13 as January of the next year, hour 24 as the
 * next day) or its reading of years 0-99 as 1900-1999 would be another time, so a field that is
 * not a calendar date and time is refused (@fieldcast/calendar holds the rule).
 */
import { calendarFault, calendarMs } from '@fieldcast/calendar';
import { uint16 } from './bits.js';
import { GribError } from './errors.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The time (UTC ms) of the seven octets from `t[at]`; `where` names them for the refusal, as
 * "section 1 octets 13-19". Second 60 is refused too: a leap second has no epoch millisecond of
 * its own, and the sources write whole hours.
 */
export function readTime(t: Uint8Array, at: number, where: string): number {
  const year = uint16(t, at);
  const [month, day, hour, minute, second] = [t[at + 2]!, t[at + 3]!, t[at + 4]!, t[at + 5]!, t[at + 6]!];
  const ms = calendarMs(year, month, day, hour, minute, second);
  if (ms === null) {
    const fields = { year, month, day, hour, minute, second };
    const fault = calendarFault(year, month, day, hour, minute, second)!;
    throw new GribError(
      `${where}: ${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)} is not a date and time (${fault} ${fields[fault]})`,
    );
  }
  return ms;
}
