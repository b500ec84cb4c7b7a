import type { HourlyQuery } from '@fieldcast/schemas';
import { type GridSource, storesOf } from '@fieldcast/weather';
import type { AssetRecord } from './domain/assets.js';
import { assetSeriesWork, checkWork, type HourlyQuantity, hourlySeriesJson } from './domain/hourly-series.js';
import { type AreaWorker, computePool, workerModule } from '@fieldcast/runtime/workers';
import { AREA } from './store.js';
/** Its thread module, `src/series-worker.ts`, declared in the service definition's `workers`. */
export const SERIES_WORKER: AreaWorker = { area: AREA, name: 'series-worker' };

/** One asset series as sent to a compute thread (structured-cloneable). */
export interface SeriesTask {
  /** the Zarr stores in front of the synthetic world, as the process opened them */
  stores: string[];
  quantity: HourlyQuantity;
  asset: AssetRecord;
  query: HourlyQuery;
}

export interface SeriesComputer {
  /** an asset's series as its JSON text (hourlySeriesJson): its work checked here, then computed in a compute thread */
  asset(asset: AssetRecord, quantity: HourlyQuantity, query: HourlyQuery): Promise<string>;
  /** starts the threads before the first request (the service's warm-up) */
  prestart(): void;
  close(): Promise<void>;
}

/**
 * Asset series off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md): a
 * month over a 5,000 km² asset is seconds of computation (bench/README.md), which would stall
 * every other request of the process. The work is checked against the limit before anything is
 * sent; the threads start with the service or on the first asset series. With `threads` 0, or a source no thread can
 * open, the series is computed inline.
 */
export function seriesComputer(source: GridSource, threads: number): SeriesComputer {
  const stores = threads > 0 ? storesOf(source) : undefined;
  const pool = computePool<SeriesTask, string>(workerModule(import.meta.url, SERIES_WORKER), threads);
  return {
    async asset(asset, quantity, query) {
      checkWork(assetSeriesWork(source, asset, quantity, query));
      if (!stores) return hourlySeriesJson(source, quantity, { asset }, query);
      return pool.run({ stores, quantity, asset, query });
    },
    prestart: () => {
      if (stores) pool.prestart();
    },
    close: pool.close,
  };
}
