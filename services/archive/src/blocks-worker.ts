import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { errorData, type WorkerReply } from '@fieldcast/runtime/workers';
import { computeBlock, type BlockKey } from './domain/event-blocks.js';

/**
 * A compute thread of the archive (docs/decisions/0051-heavy-work-in-worker-threads.md): draws
 * the event blocks it is sent from the synthetic world, one at a time, and posts each back.
 */

// A thread's nice value is its own on Linux (setpriority(2)): the event loop keeps the CPU it
// needs for health checks and light requests while a block is drawn.
if (process.platform === 'linux') setPriority(10);

parentPort?.on('message', (key: BlockKey) => {
  let reply: WorkerReply<unknown>;
  try {
    reply = { ok: true, result: computeBlock(key) };
  } catch (err) {
    reply = { ok: false, error: errorData(err) };
  }
  parentPort?.postMessage(reply);
});
