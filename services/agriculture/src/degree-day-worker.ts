import { openStores, SyntheticSource, warmSyntheticWorld } from '@fieldcast/weather';
import { type DegreeDayTask, runTask } from './degree-day-compute.js';
import { serveTasks } from '@fieldcast/runtime/compute-thread';

/**
 * A compute thread (docs/decisions/0051-heavy-work-in-worker-threads.md): opens the same weather
 * as the process (the synthetic world behind the same Zarr stores) once per set of stores, and
 * runs the field computations it is sent, one at a time.
 */
// The synthetic world's climate loaded and its reads compiled as the thread starts rather than by its first task (0305, 0306).
void warmSyntheticWorld(new SyntheticSource());
serveTasks(async (task: DegreeDayTask): Promise<unknown> => {
  const source = await openStores(task.stores);
  return runTask(source, task);
});
