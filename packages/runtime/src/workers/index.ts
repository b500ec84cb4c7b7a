// Heavy computation off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md): a
// subpath of its own so a worker thread loads these two modules, not the whole runtime.
export { WorkerPool, type WorkerReply } from './worker-pool.js';
export { errorData, reviveError } from './worker-errors.js';
