import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { openStores } from '@fieldcast/weather';
import { hourlySeriesJson } from './domain/hourly-series.js';
import type { SeriesTask } from './series-compute.js';
import { errorData, type WorkerReply } from '@fieldcast/runtime/workers';

/**
 * A compute thread of the insight area (docs/decisions/0051-heavy-work-in-worker-threads.md, as
 * the agriculture area's): opens the same weather as the process once per set of stores and runs
 * the asset series it is sent, one at a time.
 */
// A thread's nice value is its own on Linux (setpriority(2)): the event loop keeps the CPU it
// needs for health checks and light requests while an asset series computes.
if (process.platform === 'linux') setPriority(10);

parentPort?.on('message', (task: SeriesTask) => {
  openStores(task.stores)
    .then((source) => hourlySeriesJson(source, task.quantity, { asset: task.asset }, task.query))
    .then(
      (result) => parentPort?.postMessage({ ok: true, result } satisfies WorkerReply<unknown>),
      (err: unknown) => parentPort?.postMessage({ ok: false, error: errorData(err) } satisfies WorkerReply<unknown>),
    );
});
