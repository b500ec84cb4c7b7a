import {
  MICROS_PER_DAY,
  microsToIso,
  type Microseconds,
  type ObservationSetInput,
  type ObservationSetSummary,
  zonedTimestampMicros,
} from '@fieldcast/schemas';

/** One UTC day of a set's observation times: what the period query reads instead of the document. */
export interface ObservationDay {
  /** days since 1970-01-01 */
  day: number;
  /** the day's distinct observation times, ascending, in microseconds since the epoch */
  times: Microseconds[];
}

/**
 * A set ready to store: the summary, the document as sent and the index of its times. Its
 * creation time is the store's to read, when it stores the set (ObservationSetStore.publish).
 */
export interface NewObservationSet {
  id: string;
  accountId: string;
  earliest: Microseconds;
  latest: Microseconds;
  summary: Omit<ObservationSetSummary, 'creationTime'>;
  /** the body exactly as it was parsed from the request, serialised again (keys in the order sent) */
  document: string;
  days: ObservationDay[];
}

/** The UTC day (days since the epoch) holding an instant, also before 1970. */
export function dayOf(micros: Microseconds): number {
  const q = micros / MICROS_PER_DAY;
  return Number(micros < 0n && q * MICROS_PER_DAY !== micros ? q - 1n : q);
}

/**
 * The set a valid body makes (docs/interface.md §8). `input` is the validated body, `submitted`
 * the body as the request parsed it: the stored document is `submitted`, whose keys keep the
 * order they were sent in (a schema's output lists them in the schema's order), and which holds
 * nothing else because the schema refuses unknown members
 * (docs/decisions/0150-observation-sets-stored-as-sent.md).
 */
export function newObservationSet(id: string, accountId: string, input: ObservationSetInput, submitted: unknown): NewObservationSet {
  // Sites of one set mostly share their times: each distinct text is read once.
  const read = new Map<string, Microseconds>();
  for (const site of input.sites) {
    for (const { time } of site.observations) {
      if (read.has(time)) continue;
      const micros = zonedTimestampMicros(time);
      // The schema has refused every time this cannot read.
      if (micros === null) throw new TypeError(`observation time ${time} passed validation unreadable`);
      read.set(time, micros);
    }
  }
  const times = new Set(read.values());
  const sorted = [...times].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const earliest = sorted[0]!;
  const latest = sorted[sorted.length - 1]!;
  const days: ObservationDay[] = [];
  for (const t of sorted) {
    const day = dayOf(t);
    const last = days[days.length - 1];
    if (last && last.day === day) last.times.push(t);
    else days.push({ day, times: [t] });
  }
  const summary = {
    id,
    earliestObservationTime: microsToIso(earliest),
    latestObservationTime: microsToIso(latest),
    tags: input.tags ? { ...(submitted as { tags: Record<string, string> }).tags } : {},
  };
  return { id, accountId, earliest, latest, summary, document: JSON.stringify(submitted), days };
}

/** The set's summary as stored and served, created at `createdAt` (spec 4.8). */
export function summaryAt(set: NewObservationSet, createdAt: Date): ObservationSetSummary {
  const { id, ...rest } = set.summary;
  return { id, creationTime: createdAt.toISOString(), ...rest };
}
