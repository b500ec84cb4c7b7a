import type { Point } from '@fieldcast/geo';
import { cutoffNamed, DEFAULT_DEGREE_DAY_BASE, dateMs } from '@fieldcast/schemas';
import { accumulateDegreeDays, celsiusToFahrenheit, usesNextMinimum } from '@fieldcast/science';
import { SEVERE_KINDS, type SevereKind } from '@fieldcast/weather';
import type { Condition } from '../schemas.js';
import type { AlertWeather } from './alert-weather.js';
import { DAY_MS, HOUR_MS } from './conditions.js';
import { LIMITS } from './limits.js';

/** What an evaluation found: the value compared with the threshold, and when it occurs where that says more. */
export interface Measurement {
  value: number;
  /** the hour of the lowest temperature (frost) */
  atMs?: number;
  /** the kinds of the events counted (severe weather) */
  kinds?: SevereKind[];
  /** how many of them are storm reports ingested into the archive (severe weather) */
  ingested?: number;
}

/** The N hours after now: from the next whole hour on (docs/decisions/0272-alert-rule-kinds.md). */
function nextHours(nowMs: number, hours: number): [number, number] {
  const first = Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS;
  return [first, first + (hours - 1) * HOUR_MS];
}

/**
 * Measures a condition at a point at `nowMs` (docs/interface.md, alerts):
 * - degree-days: the total from start through today (UTC) by the agriculture area's methods
 *   (`accumulateDegreeDays` of the science package), temperatures in the rule's scale; at most
 *   LIMITS.degreeDayDays days from start (one season), so the total of a rule older than its
 *   season is that season's and a pass reads no more however old the rule;
 * - frost: the lowest hourly air temperature of the next `hours` hours, and its hour;
 * - reference-et: short-crop reference ET summed over the `days` x 24 hours before the current hour;
 * - precipitation: the precipitation of the next `hours` hours;
 * - severe-weather: how many events of the types passed within radiusKm in the last `hours` hours,
 *   the synthetic world's and, where the types take storm_report, the storm reports ingested into
 *   the archive (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
 * NaN where the weather has no value.
 */
export async function measure(condition: Condition, p: Point, nowMs: number, weather: AlertWeather): Promise<Measurement> {
  switch (condition.kind) {
    case 'degree-days': {
      const startMs = dateMs(condition.start);
      const lastDayMs = Math.min(Math.floor(nowMs / DAY_MS) * DAY_MS, startMs + (LIMITS.degreeDayDays - 1) * DAY_MS);
      const days = Math.round((lastDayMs - startMs) / DAY_MS) + 1;
      const method = condition.method ?? 'average';
      // The double methods read the next day's minimum: one day more than the range.
      const lastMs = lastDayMs + (usesNextMinimum(method) ? DAY_MS : 0);
      const read = await weather.dailyExtremes(p, startMs, lastMs);
      const scale = condition.scale ?? 'celsius';
      const inScale = (values: ArrayLike<number>) => (scale === 'celsius' ? values : Array.from(values, celsiusToFahrenheit));
      const base = condition.base ?? DEFAULT_DEGREE_DAY_BASE[scale];
      const value = accumulateDegreeDays(
        inScale(read.tmax),
        inScale(read.tmin),
        {
          method,
          base,
          ...(condition.cap === undefined ? {} : { cap: condition.cap }),
          cutoff: cutoffNamed(condition.cutoff),
        },
        0,
        Math.min(days, read.tmax.length),
      );
      return { value: read.tmax.length < days ? Number.NaN : value };
    }
    case 'frost': {
      const [first, last] = nextHours(nowMs, condition.hours);
      const s = await weather.hourly('air_temperature', p, first, last);
      let value = Number.NaN;
      let atMs: number | undefined;
      for (let i = 0; i < s.values.length; i++) {
        const t = s.values[i] as number;
        // A missing hour may be the coldest: it decides nothing (docs/decisions/0272-alert-rule-kinds.md).
        if (!Number.isFinite(t)) return { value: Number.NaN };
        if (!(t >= value)) {
          value = t;
          atMs = s.startMs + i * s.stepMs;
        }
      }
      return atMs === undefined ? { value } : { value, atMs };
    }
    case 'precipitation': {
      const [first, last] = nextHours(nowMs, condition.hours);
      const s = await weather.hourly('precipitation_rate', p, first, last);
      return { value: sum(s.values) * (s.stepMs / HOUR_MS) };
    }
    case 'reference-et': {
      const currentHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
      const et = await weather.referenceEt(p, currentHour - condition.days * DAY_MS, currentHour - HOUR_MS);
      // Each value is the ET of one hour (mm h-1) standing for its step's hours, as a rate does.
      return { value: sum(et.values) * (et.stepMs / HOUR_MS) };
    }
    case 'severe-weather': {
      const types = condition.types ?? [...SEVERE_KINDS];
      const fromMs = nowMs - condition.hours * HOUR_MS;
      // An ingested report is a storm report whatever its file's type: a rule of hail alone does not count it.
      const [events, ingested] = await Promise.all([
        weather.severe(types, p, condition.radiusKm, fromMs, nowMs),
        types.includes('storm_report') ? weather.ingestedReports(p, condition.radiusKm, fromMs, nowMs) : [],
      ]);
      const kinds = new Set<SevereKind>(events.map((e) => e.kind));
      if (ingested.length > 0) kinds.add('storm_report');
      return { value: events.length + ingested.length, kinds: [...kinds], ingested: ingested.length };
    }
  }
}

/** The sum of the values; NaN when any is missing, so an unknown hour never reads as none. */
function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i] as number;
  return values.length === 0 ? Number.NaN : total;
}
