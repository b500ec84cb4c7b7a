/**
 * Forecast runs of the model area (docs/interface.md §7;
 * docs/decisions/0140-forecast-runs-and-their-life-cycle.md). Runs are derived from each model's
 * cycle in the catalog, never stored: a run starts at 00Z plus k times the run interval
 * (docs/decisions/0023-catalog-products-and-model-runs.md) and its id is the UUID v5 of the model
 * and the init time (docs/decisions/0022-derived-ids-uuid-v5.md).
 *
 * Its statuses follow the life cycle the platform's product runs share (the weather package's
 * runLifeCycle: INITIALIZING, INCOMPLETE from a quarter of the publication delay, COMPLETE,
 * EXPIRED). The model area keeps an expired run readable for one more retention period: from
 * `init + 2r` on it is gone (404).
 */
import {
  CATALOG_START,
  forecastId,
  forecastValidTimes,
  type ModelDef,
  RUN_TRANSITIONS,
  type RunLifeCycle,
  runLifeCycle,
  runStatusAt,
} from '@fieldcast/weather';
import type { ModelForecastStatus } from '@fieldcast/schemas';
import { type SyncedRun, syncedValidTimes } from '@fieldcast/sync';

const HOUR_MS = 3_600_000;
const FIRST_INIT_MS = Date.parse(CATALOG_START);

/** A run of one model with its life-cycle instants. */
export interface Run extends RunLifeCycle {
  id: string;
  modelId: string;
  model: ModelDef;
  /** gone (404) from here */
  goneMs: number;
  /**
   * A run of a synced source (docs/decisions/0255-synced-runs-as-models.md): its status, valid
   * times and store are what the sync stored, not the clock's.
   */
  synced?: SyncedRun;
}

const everyMs = (m: ModelDef) => m.runEveryHours * HOUR_MS;

/** The run of model m initialised at initMs (on the model's cycle). */
export function runAt(m: ModelDef, initMs: number): Run {
  const life = runLifeCycle(initMs, m);
  return { ...life, id: forecastId(m, initMs), modelId: m.id, model: m, goneMs: life.expirationMs + m.retentionHours * HOUR_MS };
}

/**
 * The run of a synced source's model: its record's creationTime is when its first step was
 * stored, its expirationTime what retention gives (synced-models.ts in packages/sync).
 */
export function syncedRun(m: ModelDef, s: SyncedRun): Run {
  return {
    initMs: s.initMs,
    producingMs: s.createdMs,
    creationMs: s.createdMs,
    expirationMs: s.expirationMs,
    id: forecastId(m, s.initMs),
    modelId: m.id,
    model: m,
    // Listed while the registry remembers it.
    goneMs: Number.POSITIVE_INFINITY,
    synced: s,
  };
}

/** Status of a run at nowMs; null when it does not exist (yet, or any more). */
export function runStatus(r: Run, nowMs: number): ModelForecastStatus | null {
  if (r.synced) return r.synced.status;
  return nowMs >= r.goneMs ? null : runStatusAt(r, nowMs);
}

/**
 * How many of the run's valid times exist at nowMs: none while INITIALIZING, then the k-th of
 * n at producing + k/n of the production interval, all of them once COMPLETE.
 */
export function producedCount(r: Run, nowMs: number): number {
  const n = Math.floor(r.model.horizonHours / r.model.stepHours) + 1;
  if (nowMs >= r.creationMs) return n;
  if (nowMs < r.producingMs) return 0;
  const span = r.creationMs - r.producingMs;
  return Math.min(n, Math.floor(((nowMs - r.producingMs) * n) / span) + 1);
}

/** The valid times of a run that exist at nowMs, ascending (epoch ms). */
export function producedValidTimes(r: Run, nowMs: number): number[] {
  if (r.synced) return syncedValidTimes(r.synced);
  return forecastValidTimes(r.model, r.initMs).slice(0, producedCount(r, nowMs));
}

/** Init time of the newest run of m that has started by nowMs (may be before the catalog start). */
function newestInit(m: ModelDef, nowMs: number): number {
  return Math.floor(nowMs / everyMs(m)) * everyMs(m);
}

/**
 * The runs of m that exist at nowMs (INITIALIZING to EXPIRED), newest first. Runs start and
 * leave on whole hours, so the set is the same for every instant of a UTC hour
 * (docs/decisions/0140-forecast-runs-and-their-life-cycle.md).
 */
export function existingRuns(m: ModelDef, nowMs: number): Run[] {
  const out: Run[] = [];
  const oldestMs = nowMs - 2 * m.retentionHours * HOUR_MS;
  for (let t = newestInit(m, nowMs); t > oldestMs && t >= FIRST_INIT_MS; t -= everyMs(m)) out.push(runAt(m, t));
  return out;
}

/** Of the existing runs (newest first), the newest COMPLETE one at nowMs, or null when there is none. */
export function latestCompleteRun(existing: readonly Run[], nowMs: number): Run | null {
  return existing.find((r) => runStatus(r, nowMs) === 'COMPLETE') ?? null;
}

export interface RunQuery {
  startMs?: number;
  endMs?: number;
  limit: number;
  sort: 'asc' | 'desc';
}

/** Of the existing runs (newest first), those with initTime in [start, end], sorted by initTime, at most limit. */
export function listRuns(existing: readonly Run[], q: RunQuery): Run[] {
  const runs = existing.filter((r) => (q.startMs === undefined || r.initMs >= q.startMs) && (q.endMs === undefined || r.initMs <= q.endMs));
  if (q.sort === 'asc') runs.reverse();
  return runs.slice(0, q.limit);
}

/**
 * The first instant after nowMs at which a list of these runs could read differently: the next
 * status change of one of them, or the next whole UTC hour, when runs start and leave.
 */
export function nextListChangeMs(runs: readonly Run[], nowMs: number): number {
  let next = (Math.floor(nowMs / HOUR_MS) + 1) * HOUR_MS;
  for (const r of runs) {
    for (const t of RUN_TRANSITIONS) {
      const at = t.at(r);
      if (at > nowMs && at < next) next = at;
    }
  }
  return next;
}
