// Heavy computation off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md): a
// subpath of its own so a service's pools load these few modules, not the whole runtime. A thread
// itself imports serveTasks from `@fieldcast/runtime/compute-thread`, which loads no package.
export { computePool, type ComputePool, WorkerPool } from './worker-pool.js';
export { inParts, MIN_BATCH_PART } from './batch-parts.js';
export { type AreaWorker, type WorkerEntry, workerBundleName, workerModule } from './worker-module.js';
export { serveTasks, type WorkerReply } from './compute-thread.js';
export { errorData } from './error-data.js';
export { reviveError } from './worker-errors.js';
