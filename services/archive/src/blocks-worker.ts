import { serveTasks } from '@fieldcast/runtime/compute-thread';
import { prepareSyntheticClimate } from '@fieldcast/weather/synthetic';
import { computeBlock, type BlockKey } from './domain/event-blocks.js';

/**
 * A compute thread of the archive (docs/decisions/0051-heavy-work-in-worker-threads.md): draws
 * the event blocks it is sent from the synthetic world, one at a time, and posts each back.
 */
// The climate the storms are drawn on, loaded as the thread starts rather than by its first block.
prepareSyntheticClimate();
serveTasks((key: BlockKey) => computeBlock(key));
