import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { errorData } from './error-data.js';

/**
 * The workerData member that tells a thread it was started ahead of its first task, by the
 * service's warm-up (docs/decisions/0290-services-warm-up-once-they-listen.md): only such a
 * thread warms itself (serveTasks' `warmUp`). A thread a task starts runs that task at once.
 */
export const PRESTARTED = 'fieldcastPrestarted';

/** What a worker posts back: a result, or an error as plain data (errors do not cross threads with their class). */
export type WorkerReply<Result> = { ok: true; result: Result } | { ok: false; error: Record<string, unknown> };

/**
 * The body of a compute thread (docs/decisions/0051-heavy-work-in-worker-threads.md): runs each
 * task its pool sends (one at a time, the pool sends no other before the reply) and posts back the
 * result, or the error as data for reviveError. `warmUp` runs first in a thread the service's
 * warm-up started (PRESTARTED), so the first task finds its code compiled (0305); a thread a task
 * started goes straight to that task.
 */
export function serveTasks<Task, Result>(compute: (task: Task) => Result | Promise<Result>, warmUp?: () => Promise<void>): void {
  // On Linux a nice value belongs to a thread (setpriority(2), "bugs": PRIO_PROCESS with pid 0 is
  // the calling thread under NPTL), so this thread yields the CPU to the event loop's when both
  // want it: health checks and light requests keep their share while heavy work computes.
  // Elsewhere it would lower the whole process, so it is left alone.
  if (process.platform === 'linux') setPriority(10);
  // A warm-up only compiles ahead: one that fails leaves the thread to serve its tasks cold, and
  // is reported on the process's stderr, where its rejection would otherwise end the thread and
  // fail the task it ran beside.
  if (warmUp && (workerData as Record<string, unknown> | null)?.[PRESTARTED] === true)
    warmUp().catch((err: unknown) =>
      process.emitWarning(`a compute thread's warm-up failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  parentPort?.on('message', (task: Task) => {
    Promise.resolve(task)
      .then(compute)
      .then(
        (result) => parentPort?.postMessage({ ok: true, result } satisfies WorkerReply<Result>),
        (err: unknown) => parentPort?.postMessage({ ok: false, error: errorData(err) } satisfies WorkerReply<Result>),
      );
  });
}
