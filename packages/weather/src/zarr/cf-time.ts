/**
 * CF time coordinates (CF conventions 1.11, section 4.4 "Time Coordinate"): values are
 * offsets in `<unit> since <reference date>` on a calendar. Fieldcast only serves real
 * (Gregorian) dates, so model calendars without leap days or with 360-day years are refused
 * rather than silently shifted (CF 4.4.1 lists them).
 */
import { calendarFault, calendarMs } from '@fieldcast/calendar';

/** The time encoding every Fieldcast store writes: integral hours for hourly and daily steps. */
export const STORE_TIME_UNITS = 'hours since 1970-01-01 00:00:00';
export const STORE_TIME_CALENDAR = 'proleptic_gregorian';

const UNIT_MS: Record<string, number> = {
  second: 1000,
  seconds: 1000,
  sec: 1000,
  secs: 1000,
  s: 1000,
  minute: 60_000,
  minutes: 60_000,
  min: 60_000,
  mins: 60_000,
  hour: 3_600_000,
  hours: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  h: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
  d: 86_400_000,
};

/**
 * Calendars whose dates are the real ones for the span Fieldcast covers. "gregorian" and
 * "standard" are the mixed Julian/Gregorian calendar, identical to proleptic Gregorian after
 * 1582-10-15 (CF 4.4.1); references before that are refused below.
 */
const REAL_CALENDARS = new Set(['standard', 'gregorian', 'proleptic_gregorian', 'proleptic-gregorian']);

export interface CfTimeEncoding {
  /** milliseconds per unit */
  unitMs: number;
  /** reference date, epoch ms UTC */
  epochMs: number;
}

export class CfTimeError extends Error {
  override name = 'CfTimeError';
}

/** Parses `units` (e.g. "days since 1900-01-01 00:00:0.0") and checks the calendar. */
export function parseCfTimeUnits(units: string, calendar?: string): CfTimeEncoding {
  const cal = (calendar ?? 'standard').trim().toLowerCase();
  if (!REAL_CALENDARS.has(cal)) {
    throw new CfTimeError(`time calendar "${calendar}" is not supported: only standard/gregorian/proleptic_gregorian dates can be served`);
  }
  const m = /^\s*(\w+)\s+since\s+(.+?)\s*$/i.exec(units);
  if (!m) throw new CfTimeError(`time units "${units}" are not of the CF form "<unit> since <date>"`);
  const unitMs = UNIT_MS[m[1]!.toLowerCase()];
  if (unitMs === undefined) throw new CfTimeError(`time unit "${m[1]}" is not supported (seconds..days)`);
  const epochMs = parseReferenceDate(m[2]!);
  if (cal !== 'proleptic_gregorian' && cal !== 'proleptic-gregorian' && epochMs < Date.UTC(1582, 9, 15)) {
    throw new CfTimeError(`reference date before 1582-10-15 on the mixed "${cal}" calendar is not supported`);
  }
  return { unitMs, epochMs };
}

/**
 * UDUNITS reference dates: "1970-01-01", "1970-1-1 0:0:0", "1970-01-01T00:00:00Z",
 * "1900-01-01 00:00:00.0", optionally followed by a zone offset ("+00:00", "-6", "UTC").
 */
export function parseReferenceDate(text: string): number {
  const m =
    /^(-?\d{1,4})-(\d{1,2})-(\d{1,2})(?:[T\s]+(\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?\s*$/i.exec(
      text.trim(),
    );
  if (!m) throw new CfTimeError(`reference date "${text}" is not understood`);
  const [, y, mo, d, h, mi, s, zone] = m;
  const seconds = s === undefined ? 0 : Number(s);
  const fields = [Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Math.floor(seconds)] as const;
  // A reference that is no calendar time (1900-02-30, hour 24) is refused, not rolled onto another one.
  const whole = calendarMs(...fields);
  if (whole === null) throw new CfTimeError(`reference date "${text}" is not a calendar date and time (its ${calendarFault(...fields)})`);
  let ms = whole + Math.round((seconds - fields[5]) * 1000);
  if (zone && !/^(Z|UTC|GMT)$/i.test(zone)) {
    const zm = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone)!;
    const offsetMin = (Number(zm[2]) * 60 + Number(zm[3] ?? 0)) * (zm[1] === '-' ? -1 : 1);
    ms -= offsetMin * 60_000;
  }
  return ms;
}

/** Decodes CF time values to epoch milliseconds, rounded to the millisecond. */
export function decodeCfTimes(values: ArrayLike<number>, enc: CfTimeEncoding): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.round(enc.epochMs + Number(values[i]) * enc.unitMs);
  return out;
}

/** Encodes epoch milliseconds as hours since 1970-01-01 (STORE_TIME_UNITS). */
export function encodeStoreTimes(startMs: number, stepMs: number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (startMs + i * stepMs) / 3_600_000;
  return out;
}

/**
 * A regular axis: GridSource answers with startMs + i*stepMs, so the times must be evenly
 * spaced. Returns null when they are not.
 */
export function regularAxis(timesMs: readonly number[]): { startMs: number; stepMs: number } | null {
  const first = timesMs[0];
  if (first === undefined) return null;
  if (timesMs.length === 1) return { startMs: first, stepMs: 0 };
  const step = timesMs[1]! - first;
  if (step <= 0) return null;
  for (let i = 2; i < timesMs.length; i++) {
    if (Math.abs(timesMs[i]! - (first + i * step)) > 1) return null;
  }
  return { startMs: first, stepMs: step };
}

/**
 * The cell every stamp of a time coordinate stands for, as offsets from the stamp (grid-source.ts
 * TimeCell), from its bounds (CF 1.11 §7.1: a bounds variable of shape [time, 2], in the
 * coordinate's units), given as the decoded lower and upper bound of each stamp in turn. Null when
 * the offsets differ between stamps (cells a regular axis cannot state, such as calendar months).
 */
export function constantTimeCell(timesMs: readonly number[], boundsMs: readonly number[]): [number, number] | null {
  if (timesMs.length === 0 || boundsMs.length !== 2 * timesMs.length) return null;
  const lower = Math.min(boundsMs[0]!, boundsMs[1]!) - timesMs[0]!;
  const upper = Math.max(boundsMs[0]!, boundsMs[1]!) - timesMs[0]!;
  for (let i = 1; i < timesMs.length; i++) {
    const lo = Math.min(boundsMs[2 * i]!, boundsMs[2 * i + 1]!) - timesMs[i]!;
    const hi = Math.max(boundsMs[2 * i]!, boundsMs[2 * i + 1]!) - timesMs[i]!;
    // Decoded times are rounded to the millisecond (decodeCfTimes).
    if (Math.abs(lo - lower) > 1 || Math.abs(hi - upper) > 1) return null;
  }
  return [lower, upper];
}
