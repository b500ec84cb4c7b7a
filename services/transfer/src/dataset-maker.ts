/**
 * Where files are made (docs/architecture.md §3: heavy work runs off the event loop;
 * docs/decisions/0051-heavy-work-in-worker-threads.md): in a worker thread that opens the same
 * weather as the process (the synthetic world behind the same Zarr stores), or on the event loop,
 * between rows, when the weather cannot be opened again in another thread (a test's hand-made
 * source) or the service has no compute threads.
 */
import { Worker } from 'node:worker_threads';
import { type AreaWorker, workerModule } from '@fieldcast/runtime/workers';
import { type GridSource, type ServedStores, storesOf } from '@fieldcast/weather';
import { type Dataset, weatherOf } from './domain/datasets.js';
import { produceDatasetFile } from './domain/produce.js';

/** Its thread module, `src/dataset-worker.ts`, declared in the service definition's `workers`. */
export const DATASET_WORKER: AreaWorker = { area: 'transfer', name: 'dataset-worker' };

/** One file to make, as sent to a worker thread (structured-cloneable). */
export interface DatasetTask {
  /** the stores the process serves, which the thread opens; a synced source's stores alone for its product (`synced`) */
  stores: ServedStores;
  /** the synced source whose product it is (docs/decisions/0340-synced-transfer-products.md) */
  synced?: string;
  product: Dataset['product']['def'];
  dataset: string;
  /** the dataset's valid times as the process found them, so the thread writes the same steps */
  startMs: number | null;
  times: number[];
  path: string;
}

/** What the thread posts: the share of rows written as it goes, then the file's size or why it failed. */
export type DatasetReply = { progress: number } | { ok: true; size: number } | { ok: false; message: string };

export interface DatasetMaker {
  /** writes the dataset's file at `path`, telling `progress` the share of rows written; returns its size */
  make(dataset: Dataset, path: string, progress?: (done: number) => void): Promise<number>;
  /** ends the threads making files now; their files fail */
  close(): Promise<void>;
}

/** A thread per file being made (files take seconds to minutes, a thread starts in milliseconds), ended when it is done. */
export function datasetMaker(source: GridSource, options: { threads: boolean }): DatasetMaker {
  const running = new Set<Worker>();
  return {
    make(dataset, path, progress = () => undefined) {
      // The stores served now: a newly synced run is among them (docs/decisions/0251-synced-stores-registry.md).
      const synced = dataset.product.synced;
      const stores = options.threads ? (synced ? { locations: synced.stores, synthetic: false } : storesOf(source)) : undefined;
      if (!stores) return produceDatasetFile(dataset, weatherOf(dataset.product, source), path, progress);
      const entry = workerModule(import.meta.url, DATASET_WORKER);
      // workerData is an object: web-worker (loaded with the weather package) reads its settings from it.
      const worker = new Worker(entry.filename, { workerData: {}, ...entry.options });
      running.add(worker);
      return new Promise<number>((resolve, reject) => {
        worker.on('message', (reply: DatasetReply) => {
          if ('progress' in reply) progress(reply.progress);
          else if (reply.ok) resolve(reply.size);
          else reject(new Error(reply.message));
        });
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`the worker making ${dataset.name} exited with code ${code}`)));
        const task: DatasetTask = {
          stores,
          ...(synced ? { synced: synced.source } : {}),
          product: dataset.product.def,
          dataset: dataset.name,
          startMs: dataset.startMs,
          times: dataset.times,
          path,
        };
        worker.postMessage(task);
      }).finally(() => {
        running.delete(worker);
        void worker.terminate();
      });
    },
    async close() {
      await Promise.all([...running].map((w) => w.terminate()));
    },
  };
}
