import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { loadWeatherSource, ZarrSource } from '@fieldcast/weather';
import type { DatasetReply, DatasetTask } from './dataset-maker.js';
import { answered, resolveProduct } from './domain/datasets.js';
import { produceDatasetFile } from './domain/produce.js';
import { syncedWeather } from './domain/synced-products.js';

/**
 * A thread that makes one dataset's file (dataset-maker.ts): it opens the process's weather (a
 * synced source's stores alone for its product), resolves the product again from its definition,
 * takes the dataset's valid times as the process found them, and writes the file.
 */

// On Linux a nice value belongs to a thread (setpriority(2)): this one yields the CPU to the
// event loop's, so other requests keep their share while a file is made. Elsewhere it would lower
// the whole process, so it is left alone.
if (process.platform === 'linux') setPriority(10);

async function make(task: DatasetTask): Promise<number> {
  const source = task.synced
    ? syncedWeather(task.synced, await Promise.all(task.stores.locations.map((location) => ZarrSource.open(location))))
    : await loadWeatherSource({ storeUrls: task.stores.locations, synthetic: task.stores.synthetic });
  const product = resolveProduct(task.product, source);
  if (typeof product === 'string') throw new Error(`${task.product.name}: ${product}`);
  const dataset = answered({ product, name: task.dataset, startMs: task.startMs, times: task.times }, source);
  return produceDatasetFile(dataset, source, task.path, (done) => parentPort?.postMessage({ progress: done } satisfies DatasetReply));
}

parentPort?.once('message', (task: DatasetTask) => {
  make(task).then(
    (size) => parentPort?.postMessage({ ok: true, size } satisfies DatasetReply),
    (err: unknown) =>
      parentPort?.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) } satisfies DatasetReply),
  );
});
