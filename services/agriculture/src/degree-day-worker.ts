import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { openStores } from '@fieldcast/weather';
import { fieldContours, fieldDegreeDays } from './domain/growing-degree-days.js';
import type { DegreeDayTask } from './degree-day-compute.js';
import { errorData, type WorkerReply } from '@fieldcast/runtime/workers';

/**
 * A compute thread (docs/decisions/0051-heavy-work-in-worker-threads.md): opens the same weather
 * as the process (the synthetic world behind the same Zarr stores) once per set of stores, and
 * runs the field computations it is sent, one at a time.
 */
// On Linux a nice value belongs to a thread (setpriority(2), "bugs": PRIO_PROCESS with pid 0 is
// the calling thread under NPTL), so this thread yields the CPU to the event loop's when both want
// it: health checks and light requests keep their share while a heavy request computes. Elsewhere
// it would lower the whole process, so it is left alone.
if (process.platform === 'linux') setPriority(10);

async function compute(task: DegreeDayTask) {
  const source = await openStores(task.stores);
  return task.kind === 'contours'
    ? fieldContours(source, task.field, task.query, task.limit)
    : fieldDegreeDays(source, task.field, task.query, task.limit);
}

parentPort?.on('message', (task: DegreeDayTask) => {
  compute(task).then(
    (result) => parentPort?.postMessage({ ok: true, result } satisfies WorkerReply<unknown>),
    (err: unknown) => parentPort?.postMessage({ ok: false, error: errorData(err) } satisfies WorkerReply<unknown>),
  );
});
