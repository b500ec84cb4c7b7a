import type { WorkerOptions } from 'node:worker_threads';
import { reviveError, WorkerPool } from '@fieldcast/runtime/workers';
import { inlineDrawer, type Block, type BlockKey, type DrawBlock } from './domain/event-blocks.js';

/**
 * The thread's module: in the bundle, the worker bundle beside cli.js (scripts/build.ts); from the
 * TypeScript sources (tsx, Jest), the module beside this one behind a line that registers tsx's
 * loader in the new thread (Node 20 gives a thread no loader hooks of its parent).
 */
function workerEntry(): { filename: URL | string; options?: WorkerOptions } {
  if (!import.meta.url.endsWith('.ts')) return { filename: new URL('./archive-blocks-worker.js', import.meta.url) };
  const module = JSON.stringify(new URL('./blocks-worker.ts', import.meta.url).href);
  return { filename: `import('tsx/esm/api').then(({ register }) => { register(); return import(${module}); });`, options: { eval: true } };
}

export interface BlockDrawer {
  draw: DrawBlock;
  close(): Promise<void>;
}

/**
 * Event blocks drawn off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md,
 * docs/decisions/0171-archive-event-blocks.md): a block not yet cached is tens to hundreds of
 * milliseconds of the synthetic world's storm drawing, which on the loop would stall every other
 * request of the process. The threads start on the first block drawn; with `threads` 0 blocks
 * are drawn on the loop, one at a time.
 */
export function blockDrawer(threads: number): BlockDrawer {
  if (threads <= 0) return { draw: inlineDrawer(), close: async () => undefined };
  let pool: WorkerPool<BlockKey, Block> | undefined;
  return {
    draw(key) {
      pool ??= new WorkerPool<BlockKey, Block>(workerEntry(), threads, reviveError);
      return pool.run(key);
    },
    async close() {
      const closing = pool;
      pool = undefined;
      await closing?.close();
    },
  };
}
