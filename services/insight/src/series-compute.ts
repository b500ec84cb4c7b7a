import type { HourlyQuery } from '@fieldcast/schemas';
import { type GridSource, type ServedStores, storesOf, syntheticWorldForThreads } from '@fieldcast/weather';
import type { AssetRecord } from './domain/assets.js';
import { assetSeriesWork, checkWork, type HourlyQuantity, hourlySeriesJson } from './domain/hourly-series.js';
import { type AreaWorker, computePool, inParts, workerModule } from '@fieldcast/runtime/workers';
import { AREA } from './store.js';
/** Its thread module, `src/series-worker.ts`, declared in the service definition's `workers`. */
export const SERIES_WORKER: AreaWorker = { area: AREA, name: 'series-worker' };

/** An asset's series, or the series of many points (a batch) (structured-cloneable). */
export type SeriesTask = {
  quantity: HourlyQuantity;
  query: HourlyQuery;
} & ({ asset: AssetRecord } | { points: Point[] });

/** A task as sent to a compute thread: with the stores the process serves, which the thread opens. */
export type SeriesThreadTask = SeriesTask & { stores: ServedStores };

type Point = { longitude: number; latitude: number };

/** Runs a task on a source: in a compute thread, or on the event loop without threads. */
export async function runSeriesTask(source: GridSource, task: SeriesTask): Promise<string | string[]> {
  if ('asset' in task) return hourlySeriesJson(source, task.quantity, { asset: task.asset }, task.query);
  const out: string[] = [];
  for (const p of task.points) out.push(await hourlySeriesJson(source, task.quantity, p, task.query));
  return out;
}

export interface SeriesComputer {
  /** an asset's series as its JSON text (hourlySeriesJson): its work checked here, then computed in a compute thread */
  asset(asset: AssetRecord, quantity: HourlyQuantity, query: HourlyQuery): Promise<string>;
  /** the series of many points (a batch, whose work its route has checked) as their JSON texts, in their order */
  points(points: Point[], quantity: HourlyQuantity, query: HourlyQuery): Promise<string[]>;
  /** starts the threads before the first request (the service's warm-up) */
  prestart(): void;
  close(): Promise<void>;
}

/**
 * Asset series and batches of points off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md): a
 * month over a 5,000 km² asset is seconds of computation (bench/README.md), which would stall
 * every other request of the process. The work is checked against the limit before anything is
 * sent; the threads start with the service or on the first asset series. With `threads` 0, or a source no thread can
 * open, the series is computed inline.
 */
export function seriesComputer(source: GridSource, threads: number): SeriesComputer {
  // The stores served at each task: a newly synced run is among them (docs/decisions/0251-synced-stores-registry.md).
  const storesNow = () => (threads > 0 ? storesOf(source) : undefined);
  const pool = computePool<SeriesThreadTask, string | string[]>(
    workerModule(import.meta.url, SERIES_WORKER),
    threads,
    syntheticWorldForThreads,
  );
  const run = (task: SeriesTask) => {
    const stores = storesNow();
    return stores ? pool.run({ ...task, stores }) : runSeriesTask(source, task);
  };
  return {
    async asset(asset, quantity, query) {
      checkWork(assetSeriesWork(source, asset, quantity, query));
      return run({ quantity, asset, query }) as Promise<string>;
    },
    // A batch spreads over the idle threads (docs/decisions/0358-batches-spread-over-idle-threads.md).
    points: (points, quantity, query) =>
      inParts(points, pool.idleThreads(), (part) => run({ quantity, points: part, query }) as Promise<string[]>),
    prestart: () => {
      if (storesNow()) pool.prestart();
    },
    close: pool.close,
  };
}
