import { serveTasks } from '@fieldcast/runtime/workers';
import { computeBlock, type BlockKey } from './domain/event-blocks.js';

/**
 * A compute thread of the archive (docs/decisions/0051-heavy-work-in-worker-threads.md): draws
 * the event blocks it is sent from the synthetic world, one at a time, and posts each back.
 */
serveTasks((key: BlockKey) => computeBlock(key));
