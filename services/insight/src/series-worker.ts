import { openStores, prepareSyntheticClimate } from '@fieldcast/weather';
import { runSeriesTask, type SeriesThreadTask } from './series-compute.js';
import { serveTasks } from '@fieldcast/runtime/compute-thread';

/**
 * A compute thread of the insight area (docs/decisions/0051-heavy-work-in-worker-threads.md, as
 * the agriculture area's): opens the same weather as the process once per set of stores and runs
 * the asset series and batches it is sent, one at a time.
 */
// The synthetic world's climate, loaded as the thread starts rather than by its first task.
prepareSyntheticClimate();
serveTasks(async (task: SeriesThreadTask) => runSeriesTask(await openStores(task.stores), task));
