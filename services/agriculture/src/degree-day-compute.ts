import type {
  ChillFieldResult,
  ChillLocationResult,
  ChillQuery,
  DegreeDayContourResult,
  DegreeDayFieldResult,
  DegreeDayLocationResult,
  DegreeDayQuery,
} from '@fieldcast/schemas';
import { type GridSource, type ServedStores, storesOf, syntheticWorldForThreads } from '@fieldcast/weather';
import { chillPoints, chillWork, fieldChill } from './domain/chill.js';
import { degreeDayPoints, fieldContours, fieldDegreeDays } from './domain/growing-degree-days.js';
import type { FieldRecord } from './domain/fields.js';
import { checkChillWork, checkWork, degreeDayWork, MAX_CHILL_CELL_HOURS, MAX_DEGREE_DAY_CELL_DAYS } from './domain/work-limits.js';
import { type AreaWorker, computePool, inParts, workerModule } from '@fieldcast/runtime/workers';
import { AREA } from './store.js';
/** Its thread module, `src/degree-day-worker.ts`, declared in the service definition's `workers`. */
export const DEGREE_DAY_WORKER: AreaWorker = { area: AREA, name: 'degree-day-worker' };

/** One field computation (structured-cloneable). */
export type DegreeDayTask = {
  /** the work limit of the task's kind: cell-days for degree days, cell-hours for chill */
  limit: number;
} & (
  | { kind: 'field' | 'contours'; field: FieldRecord; query: DegreeDayQuery }
  | { kind: 'chill'; field: FieldRecord; query: ChillQuery }
  | { kind: 'degree-day-points'; points: Point[]; query: DegreeDayQuery }
  | { kind: 'chill-points'; points: Point[]; query: ChillQuery }
);

type Point = { longitude: number; latitude: number };

/** A task as the process hands it over, before the stores and the limit are added. */
type TaskOf<T> = T extends DegreeDayTask ? Omit<T, 'limit'> : never;

/** A task as sent to a compute thread: with the stores the process serves, which the thread opens. */
export type DegreeDayThreadTask = DegreeDayTask & { stores: ServedStores };

/** Runs a task on a source: in a compute thread, or on the event loop without threads. */
export function runTask(source: GridSource, task: DegreeDayTask): Promise<unknown> {
  switch (task.kind) {
    case 'chill':
      return fieldChill(source, task.field, task.query, task.limit);
    case 'contours':
      return fieldContours(source, task.field, task.query, task.limit);
    case 'field':
      return fieldDegreeDays(source, task.field, task.query, task.limit);
    case 'degree-day-points':
      return degreeDayPoints(source, task.points, task.query);
    case 'chill-points':
      return chillPoints(source, task.points, task.query);
  }
}

export interface DegreeDayComputer {
  field(field: FieldRecord, query: DegreeDayQuery): Promise<DegreeDayFieldResult>;
  contours(field: FieldRecord, query: DegreeDayQuery): Promise<DegreeDayContourResult>;
  chill(field: FieldRecord, query: ChillQuery): Promise<ChillFieldResult>;
  /** location results of many points (a batch, whose work its route has checked), in their order */
  degreeDayPoints(points: Point[], query: DegreeDayQuery): Promise<DegreeDayLocationResult[]>;
  chillPoints(points: Point[], query: ChillQuery): Promise<ChillLocationResult[]>;
  /** starts the threads before the first request (the service's warm-up) */
  prestart(): void;
  /** ends the compute threads, if any were started */
  close(): Promise<void>;
}

export interface DegreeDayComputerOptions {
  /** compute threads; 0 computes on the event loop */
  threads: number;
  /** most cell-days one degree-day request may ask for */
  limit?: number;
  /** most cell-hours one chill request may ask for */
  chillLimit?: number;
}

/**
 * Field results (degree days, chill) and contours off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md):
 * the work is checked against the limit here, before anything is read, then the weather read,
 * degree days and isobands run in a compute thread. The threads start with the service or on the
 * first request.
 */
export function degreeDayComputer(source: GridSource, options: DegreeDayComputerOptions): DegreeDayComputer {
  const limit = options.limit ?? MAX_DEGREE_DAY_CELL_DAYS;
  const chillLimit = options.chillLimit ?? MAX_CHILL_CELL_HOURS;
  // The stores served at each task: a newly synced run is among them (docs/decisions/0251-synced-stores-registry.md).
  const storesNow = () => (options.threads > 0 ? storesOf(source) : undefined);
  const entry = workerModule(import.meta.url, DEGREE_DAY_WORKER);
  const pool = computePool<DegreeDayThreadTask, unknown>(entry, options.threads, syntheticWorldForThreads);
  const run = <R>(task: TaskOf<DegreeDayTask>) => {
    const stores = storesNow();
    const full = { ...task, limit: task.kind.startsWith('chill') ? chillLimit : limit } as DegreeDayTask;
    return (stores ? pool.run({ ...full, stores }) : runTask(source, full)) as Promise<R>;
  };
  return {
    async field(field, query) {
      checkWork(degreeDayWork.field(source, field, query), limit);
      return run({ kind: 'field', field, query });
    },
    async contours(field, query) {
      checkWork(degreeDayWork.contours(source, field, query), limit);
      return run({ kind: 'contours', field, query });
    },
    async chill(field, query) {
      checkChillWork(chillWork.field(source, field, query), chillLimit);
      return run({ kind: 'chill', field, query });
    },
    // A batch spreads over the idle threads (docs/decisions/0358-batches-spread-over-idle-threads.md).
    degreeDayPoints: (points, query) =>
      inParts(points, pool.idleThreads(), (part) => run<DegreeDayLocationResult[]>({ kind: 'degree-day-points', points: part, query })),
    chillPoints: (points, query) =>
      inParts(points, pool.idleThreads(), (part) => run<ChillLocationResult[]>({ kind: 'chill-points', points: part, query })),
    prestart: () => {
      if (storesNow()) pool.prestart();
    },
    close: pool.close,
  };
}
