import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { errorData, type WorkerReply } from '@fieldcast/runtime/workers';
import { type GridSource, loadWeatherSource } from '@fieldcast/weather';
import { sampleLayer } from './domain/layers.js';
import type { SampleTask } from './sample-compute.js';

/**
 * A compute thread of the tiles area (docs/decisions/0051-heavy-work-in-worker-threads.md, as the
 * insight area's): opens the same weather as the process once per set of stores and samples the
 * tiles it is sent, one at a time.
 */
const sources = new Map<string, Promise<GridSource>>();

// A thread's nice value is its own on Linux (setpriority(2)): the event loop keeps the CPU it
// needs for health checks and warm tiles while a cold tile is sampled.
if (process.platform === 'linux') setPriority(10);

function weatherOf(stores: string[]): Promise<GridSource> {
  const key = JSON.stringify(stores);
  let source = sources.get(key);
  if (!source) sources.set(key, (source = loadWeatherSource({ storeUrls: stores })));
  return source;
}

parentPort?.on('message', (task: SampleTask) => {
  weatherOf(task.stores)
    .then((source) => sampleLayer(source, task.layer, task.timeMs, task.tile, task.mode))
    .then(
      (result) => parentPort?.postMessage({ ok: true, result } satisfies WorkerReply<unknown>),
      (err: unknown) => parentPort?.postMessage({ ok: false, error: errorData(err) } satisfies WorkerReply<unknown>),
    );
});
