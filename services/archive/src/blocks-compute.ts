import { type AreaWorker, computePool, workerModule } from '@fieldcast/runtime/workers';
import { syntheticWorldForThreads } from '@fieldcast/weather/synthetic';
import { inlineDrawer, type Block, type BlockKey, type DrawBlock } from './domain/event-blocks.js';
import { AREA } from './store.js';
/** Its thread module, `src/blocks-worker.ts`, declared in the service definition's `workers`. */
export const BLOCKS_WORKER: AreaWorker = { area: AREA, name: 'blocks-worker' };

export interface BlockDrawer {
  draw: DrawBlock;
  /** starts the threads before the first block (the service's warm-up) */
  prestart(): void;
  close(): Promise<void>;
}

/**
 * Event blocks drawn off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md,
 * docs/decisions/0171-archive-event-blocks.md): a block not yet cached is tens to hundreds of
 * milliseconds of the synthetic world's storm drawing, which on the loop would stall every other
 * request of the process. The threads start with the service, or on the first block drawn; with
 * `threads` 0 blocks are drawn on the loop, one at a time.
 */
export function blockDrawer(threads: number): BlockDrawer {
  if (threads <= 0) return { draw: inlineDrawer(), prestart: () => undefined, close: async () => undefined };
  const pool = computePool<BlockKey, Block>(workerModule(import.meta.url, BLOCKS_WORKER), threads, syntheticWorldForThreads);
  return { draw: pool.run, prestart: pool.prestart, close: pool.close };
}
