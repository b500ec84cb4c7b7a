import { openStores, SyntheticSource, warmSyntheticWorld } from '@fieldcast/weather';
import { type DegreeDayThreadTask, runTask } from './degree-day-compute.js';
import { warmDegreeDayPoints } from './domain/growing-degree-days.js';
import { serveTasks } from '@fieldcast/runtime/compute-thread';

/**
 * A compute thread (docs/decisions/0051-heavy-work-in-worker-threads.md): opens the same weather
 * as the process (the synthetic world behind the same Zarr stores) once per set of stores, and
 * runs the field computations it is sent, one at a time.
 */
// Started by the service's warm-up, the thread loads the synthetic world's climate and compiles its
// reads, and a batch's, before its first task (0305, 0306).
serveTasks(
  async (task: DegreeDayThreadTask): Promise<unknown> => runTask(await openStores(task.stores), task),
  async () => {
    const source = new SyntheticSource();
    await warmSyntheticWorld(source);
    await warmDegreeDayPoints(source);
  },
);
