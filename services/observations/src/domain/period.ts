import { InvalidRequestError } from '@fieldcast/kit';
import { calendarDateMicros, MICROS_PER_DAY, type Microseconds, rangeOrderFault, zonedTimestampMicros } from '@fieldcast/schemas';

/** The instants of a list's period, both included; null where the period is open. */
export interface Period {
  start: Microseconds | null;
  end: Microseconds | null;
}

/** A millisecond in microseconds. */
const MICROS_PER_MS = 1000n;

/** The first microsecond of the millisecond holding an instant, also before 1970 (a floor, as microsToIso's). */
const msStart = (micros: Microseconds): Microseconds => micros - (((micros % MICROS_PER_MS) + MICROS_PER_MS) % MICROS_PER_MS);

/**
 * The period of GET /observation-sets (docs/interface.md §8): each bound a timestamp with a
 * zone, or a date meaning its whole UTC day, so `start` is the day's first microsecond and `end`
 * its last. Both bounds are included. A start after the end is a 400 naming `end`.
 *
 * A timestamp bound likewise stands for its whole millisecond, the precision every time the
 * service shows has (docs/interface.md §1, values): observations are compared by the millisecond
 * a summary shows them at, so a bound copied from a summary's earliest or latest observation time
 * always takes in that set (docs/decisions/0361-observation-body-shape-and-period-precision.md).
 */
export function periodOf(start: string | undefined, end: string | undefined): Period {
  const from = start === undefined ? null : (zonedTimestampMicros(start) ?? calendarDateMicros(start));
  let to: Microseconds | null = null;
  if (end !== undefined) {
    const day = calendarDateMicros(end);
    to = day !== null ? day + MICROS_PER_DAY - 1n : zonedTimestampMicros(end);
  }
  // As written: an end before the start is refused even within one millisecond.
  const unordered = rangeOrderFault(from, to);
  if (unordered) {
    throw new InvalidRequestError('invalid_parameter', `Invalid query parameter: ${unordered}`, [
      { path: unordered, message: 'the period ends before it starts' },
    ]);
  }
  return { start: from === null ? null : msStart(from), end: to === null ? null : msStart(to) + MICROS_PER_MS - 1n };
}
