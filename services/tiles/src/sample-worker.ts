import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { errorData, type WorkerReply } from '@fieldcast/runtime/workers';
import { openStores } from '@fieldcast/weather';
import { sampleLayer } from './domain/layers.js';
import type { SampleTask } from './sample-compute.js';

/**
 * A compute thread of the tiles area (docs/decisions/0051-heavy-work-in-worker-threads.md, as the
 * insight area's): opens the same weather as the process once per set of stores and samples the
 * tiles it is sent, one at a time.
 */
// A thread's nice value is its own on Linux (setpriority(2)): the event loop keeps the CPU it
// needs for health checks and warm tiles while a cold tile is sampled.
if (process.platform === 'linux') setPriority(10);

parentPort?.on('message', (task: SampleTask) => {
  openStores(task.stores)
    .then((source) => sampleLayer(source, task.layer, task.timeMs, task.tile, task.mode))
    .then(
      (result) => parentPort?.postMessage({ ok: true, result } satisfies WorkerReply<unknown>),
      (err: unknown) => parentPort?.postMessage({ ok: false, error: errorData(err) } satisfies WorkerReply<unknown>),
    );
});
