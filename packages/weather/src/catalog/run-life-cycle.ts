/**
 * The life cycle of a forecast run, one rule for the model area's runs and the platform's
 * product runs (docs/decisions/0140-forecast-runs-and-their-life-cycle.md,
 * docs/decisions/0202-one-catalog-given-by-the-runtime.md). A run initialised at `init`, with
 * publication delay `d` and retention `r`:
 *
 *   [init, init + d/4)     INITIALIZING  the analysis is being assimilated; no valid time yet
 *   [init + d/4, init + d) INCOMPLETE    valid times appear in order
 *   [init + d, init + r)   COMPLETE      every valid time is there (its creation time)
 *   [init + r, ...)        EXPIRED
 *
 * Before `init` the run does not exist. Statuses are those of the public record's forecast
 * record (INITIALIZING, INCOMPLETE, COMPLETE, EXPIRED).
 */
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export type RunStatus = 'INITIALIZING' | 'INCOMPLETE' | 'COMPLETE' | 'EXPIRED';

/** The instants a run enters each status. */
export interface RunLifeCycle {
  initMs: number;
  /** INCOMPLETE from here: the first valid time is produced */
  producingMs: number;
  /** COMPLETE from here: when the run is published */
  creationMs: number;
  /** EXPIRED from here */
  expirationMs: number;
}

/** What a schedule says of one run's life: its publication delay and its retention. */
export interface RunTimings {
  publishDelayMinutes: number;
  retentionHours: number;
}

/** The life-cycle instants of the run initialised at initMs. */
export function runLifeCycle(initMs: number, timings: RunTimings): RunLifeCycle {
  const delayMs = timings.publishDelayMinutes * MINUTE_MS;
  return {
    initMs,
    producingMs: initMs + Math.floor(delayMs / 4),
    creationMs: initMs + delayMs,
    expirationMs: initMs + timings.retentionHours * HOUR_MS,
  };
}

/** Each status with the instant a run enters it, in order. */
export const RUN_TRANSITIONS: readonly { status: RunStatus; at: (r: RunLifeCycle) => number }[] = [
  { status: 'INITIALIZING', at: (r) => r.initMs },
  { status: 'INCOMPLETE', at: (r) => r.producingMs },
  { status: 'COMPLETE', at: (r) => r.creationMs },
  { status: 'EXPIRED', at: (r) => r.expirationMs },
];

/** A run's status at nowMs; null before its init time, when it does not exist yet. */
export function runStatusAt(r: RunLifeCycle, nowMs: number): RunStatus | null {
  let status: RunStatus | null = null;
  for (const t of RUN_TRANSITIONS) if (nowMs >= t.at(r)) status = t.status;
  return status;
}
