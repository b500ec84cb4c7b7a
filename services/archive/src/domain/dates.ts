/**
 * Times in the archive's requests (docs/interface.md §11): RFC 3339 date-times
 * (`2026-06-10T18:30:00Z`, offsets and fractions allowed) or POSIX seconds; the `/{date}` of a
 * path may also be an RFC 3339 full-date (`2026-06-10`), the event day that starts that day.
 * An RFC 3339 date-fullyear (section 5.6) is four digits and means the year it says.
 */
import { calendarMs } from '@fieldcast/calendar';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** An event day is the 24 hours from 06:00Z (the public record's convention). */
const EVENT_DAY_START_MS = 6 * HOUR_MS;

export const DATE_FORM = 'a time is RFC 3339 (e.g. 2026-06-10T18:30:00Z) or POSIX seconds (e.g. 1781116200)';

export class DateError extends Error {}

/** RFC 3339 section 5.6 date-time (with `T` or `t`, `Z` or an offset). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** POSIX seconds: whole seconds since 1970, up to year 9999. */
const POSIX = /^\d{1,12}$/;
/** The first instant no four-digit year names (RFC 3339 section 5.6 date-fullyear). */
const YEAR_10000_MS = Date.UTC(10000, 0, 1);

/** Epoch milliseconds of an RFC 3339 date-time or POSIX seconds. */
export function parseTime(text: string, name: string): number {
  if (POSIX.test(text)) {
    const ms = Number(text) * 1000;
    if (ms >= YEAR_10000_MS) throw new DateError(`${name} is beyond year 9999: ${DATE_FORM}`);
    return ms;
  }
  const m = DATE_TIME.exec(text);
  if (!m) throw new DateError(`${name} is malformed: ${DATE_FORM}`);
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  // RFC 3339 section 5.7 allows second 60 only at a leap second: the last second of a month in
  // UTC, 23:59:60Z shifted by the zone offset elsewhere. It is read as the next second's start.
  const leapSecond = s === 60;
  const calendar = calendarMs(y, mo, d, h, mi, leapSecond ? 59 : s);
  if (calendar === null) throw new DateError(`${name} is not a calendar time: ${DATE_FORM}`);
  let ms = calendar;
  if (m[9]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) throw new DateError(`${name} has an offset that is not one: ${DATE_FORM}`);
    ms -= (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  if (leapSecond) {
    ms += 1000;
    const after = new Date(ms);
    if (after.getUTCDate() !== 1 || after.getUTCHours() !== 0 || after.getUTCMinutes() !== 0)
      throw new DateError(`${name} is not a calendar time (second 60 is only a leap second, 23:59:60Z at a month's end): ${DATE_FORM}`);
  }
  ms += Math.floor(Number(`0${m[7] ?? ''}`) * 1000);
  if (ms < 0) throw new DateError(`${name} is before 1970-01-01T00:00:00Z`);
  // an offset can carry 9999-12-31 into year 10000, which no RFC 3339 time (four-digit year) names
  if (ms >= YEAR_10000_MS) throw new DateError(`${name} is beyond year 9999: ${DATE_FORM}`);
  return ms;
}

export interface EventDay {
  /** the date the event day starts on, YYYY-MM-DD */
  date: string;
  startMs: number;
  /** exclusive */
  endMs: number;
}

/** The event day holding an instant. */
export function eventDayOf(ms: number): EventDay {
  const startMs = Math.floor((ms - EVENT_DAY_START_MS) / DAY_MS) * DAY_MS + EVENT_DAY_START_MS;
  return { date: new Date(startMs).toISOString().slice(0, 10), startMs, endMs: startMs + DAY_MS };
}

/** The event day a path's `/{date}` names: a full-date names the day starting on it, a time the day holding it. */
export function parseEventDay(text: string): EventDay {
  const m = FULL_DATE.exec(text);
  if (m) {
    const ms = calendarMs(Number(m[1]), Number(m[2]), Number(m[3]));
    if (ms === null) throw new DateError(`date is not a calendar date: ${DATE_FORM}, or a date YYYY-MM-DD`);
    return eventDayOf(ms + EVENT_DAY_START_MS);
  }
  try {
    return eventDayOf(parseTime(text, 'date'));
  } catch (err) {
    if (err instanceof DateError) throw new DateError(`${err.message}, or a date YYYY-MM-DD`);
    throw err;
  }
}

/** Milliseconds to ISO 8601 UTC with `Z`, to the millisecond (docs/interface.md §1, values). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

export { DAY_MS };
