import { InvalidRequestError } from '@fieldcast/kit';
import { calendarDateMicros, MICROS_PER_DAY, type Microseconds, zonedTimestampMicros } from '@fieldcast/schemas';

/** The instants of a list's period, both included; null where the period is open. */
export interface Period {
  start: Microseconds | null;
  end: Microseconds | null;
}

/**
 * The period of GET /observation-sets (docs/interface.md §8): each bound a timestamp with a
 * zone, or a date meaning its whole UTC day, so `start` is the day's first microsecond and `end`
 * its last. Both bounds are included. A start after the end is a 400 naming `end`.
 */
export function periodOf(start: string | undefined, end: string | undefined): Period {
  const from = start === undefined ? null : (zonedTimestampMicros(start) ?? calendarDateMicros(start));
  let to: Microseconds | null = null;
  if (end !== undefined) {
    const day = calendarDateMicros(end);
    to = day !== null ? day + MICROS_PER_DAY - 1n : zonedTimestampMicros(end);
  }
  if (from !== null && to !== null && from > to) {
    throw new InvalidRequestError('invalid_parameter', 'Invalid query parameter: end', [
      { path: 'end', message: 'the period ends before it starts' },
    ]);
  }
  return { start: from, end: to };
}
