import { eventDayOf, isoTime } from './dates.js';
import type { ArchiveEvent } from './ingested-reports.js';
import { gustKnots } from './records.js';
import type { ArchiveType } from './types.js';

/**
 * One event day of a summary (docs/interface.md §11): the day, how many records, the first and
 * last times, and the type's maxima. A day's records are those of the query's history whose day
 * it is (docs/decisions/0365-archive-summary-days.md), so the days' counts add up to the
 * history's total.
 */
export interface SummaryDay {
  /** the date the event day starts on (06:00Z) */
  date: string;
  /** the part of the event day the query asks for, both inclusive like the query's begin and end */
  begin: string;
  end: string;
  count: number;
  firstTime: string;
  lastTime: string;
  maxSizeMm?: number;
  maxSizeIn?: number;
  maxProbability?: number;
  maxEfScale?: number;
  maxRating?: string;
  totalLengthKm?: number;
  maxPeakGustMs?: number;
  /** the same in whole knots, as a gust record gives both units (packages/schemas/src/archive.ts) */
  maxPeakGustKt?: number;
  maxDurationMinutes?: number;
  maxPeakCurrentKa?: number;
  cloud?: number;
  ground?: number;
  hail?: number;
  wind?: number;
  tornado?: number;
}

const max = (a: number | undefined, b: number) => (a === undefined ? b : Math.max(a, b));

/**
 * Event days with at least one of the events a query over `range` (inclusive instants) selected,
 * newest first. Each event counts once, under its own event day (a tornado's: its touchdown's,
 * as a storm log files an event under the time it began); a tornado already down at the range's
 * begin counts under the range's first day, since a day before begin is not asked for
 * (docs/decisions/0365-archive-summary-days.md).
 */
export function summarize(type: ArchiveType, events: readonly ArchiveEvent[], range: { startMs: number; endMs: number }): SummaryDay[] {
  const firstDay = eventDayOf(range.startMs);
  const days = new Map<number, SummaryDay & { first: number; last: number }>();
  for (const e of events) {
    const own = eventDayOf(e.timeMs);
    const day = own.startMs < firstDay.startMs ? firstDay : own;
    let s = days.get(day.startMs);
    if (!s) {
      s = {
        date: day.date,
        // the query's begin and end are inclusive instants; a day's are too (EventDay.endMs is exclusive)
        begin: isoTime(Math.max(day.startMs, range.startMs)),
        end: isoTime(Math.min(day.endMs - 1, range.endMs)),
        count: 0,
        firstTime: '',
        lastTime: '',
        first: e.timeMs,
        last: e.timeMs,
        ...initial(type),
      };
      days.set(day.startMs, s);
    }
    s.count += 1;
    s.first = Math.min(s.first, e.timeMs);
    s.last = Math.max(s.last, e.kind === 'tornado' ? e.endTimeMs : e.timeMs);
    add(type, s, e);
  }
  return [...days.entries()]
    .sort(([a], [b]) => b - a)
    .map(([, { first, last, ...day }]) => ({ ...day, firstTime: isoTime(first), lastTime: isoTime(last) }));
}

/** The type's members of a day, in the order the answers list them. */
function initial(type: ArchiveType): Partial<SummaryDay> {
  switch (type) {
    case 'hailsize':
      return { maxSizeMm: 0, maxSizeIn: 0 };
    case 'hailprob':
      return { maxProbability: 0 };
    case 'tornado':
      return { maxEfScale: 0, maxRating: 'EF0', totalLengthKm: 0 };
    case 'gustdur':
      return { maxPeakGustMs: 0, maxPeakGustKt: 0, maxDurationMinutes: 0 };
    case 'lightning':
      return { maxPeakCurrentKa: 0, cloud: 0, ground: 0 };
    case 'stormreports':
      return { hail: 0, wind: 0, tornado: 0 };
  }
}

function add(type: ArchiveType, s: SummaryDay, e: ArchiveEvent): void {
  switch (e.kind) {
    case 'hail':
      if (type === 'hailprob') s.maxProbability = max(s.maxProbability, e.probability);
      else {
        s.maxSizeMm = max(s.maxSizeMm, e.magnitude);
        s.maxSizeIn = Math.round((s.maxSizeMm / 25.4) * 100) / 100;
      }
      return;
    case 'tornado':
      s.maxEfScale = max(s.maxEfScale, e.magnitude);
      s.maxRating = `EF${s.maxEfScale}`;
      s.totalLengthKm = Math.round(((s.totalLengthKm ?? 0) + e.lengthKm) * 10) / 10;
      return;
    case 'gust':
      s.maxPeakGustMs = max(s.maxPeakGustMs, e.magnitude);
      s.maxPeakGustKt = gustKnots(s.maxPeakGustMs);
      s.maxDurationMinutes = max(s.maxDurationMinutes, e.durationMinutes);
      return;
    case 'lightning':
      s.maxPeakCurrentKa = max(s.maxPeakCurrentKa, e.magnitude);
      s[e.strokeType] = (s[e.strokeType] ?? 0) + 1;
      return;
    case 'storm_report':
      s[e.reportType] = (s[e.reportType] ?? 0) + 1;
      return;
  }
}
