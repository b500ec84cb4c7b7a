import { serveTasks } from '@fieldcast/runtime/compute-thread';
import { openStores, SyntheticSource, warmSyntheticWorld } from '@fieldcast/weather';
import { sampleLayer } from './domain/layers.js';
import type { SampleTask } from './sample-compute.js';

/**
 * A compute thread of the tiles area (docs/decisions/0051-heavy-work-in-worker-threads.md, as the
 * insight area's): opens the same weather as the process once per set of stores and samples the
 * tiles it is sent, one at a time.
 */
// Started by the service's warm-up, the thread loads the synthetic world's climate and compiles its reads before its first tile (0305).
serveTasks(
  async (task: SampleTask) => sampleLayer(await openStores(task.stores), task.layer, task.timeMs, task.tile, task.mode),
  () => warmSyntheticWorld(new SyntheticSource()),
);
