// What each pod asks of its node (docs/decisions/0281-pod-resources-from-measurements.md): the
// worker threads an area computes on, and memory and CPU from what `fieldcast serve <area>` used
// under its bench load (bench/serve-memory.bench.ts).

/**
 * FIELDCAST_COMPUTE_THREADS of the areas that compute in worker threads (those whose service
 * declares `workers`; platform and model read weather on the event loop and start none). A pod
 * sees every core of its node (availableParallelism), so the default (every core but one) would
 * start a thread, each with a heap of its own, per node core; one thread per pod, and more pods to scale.
 */
export const COMPUTE_THREADS: Readonly<Record<string, number>> = {
  agriculture: 1,
  tiles: 1,
  insight: 1,
  transfer: 1,
  archive: 1,
};

/**
 * Areas whose work is consuming a topic (the events service stores every resource event), so
 * their autoscaler stops at the partitions of a topic (TOPIC_PARTITIONS): a replica beyond them
 * holds no partition of it. Others that consume on the side (tiles applies product grants) scale
 * for their requests; a member without a partition costs nothing.
 */
export const SCALED_BY_CONSUMING: readonly string[] = ['events'];

/**
 * Measured by bench/serve-memory.bench.ts (two runs, the larger figure): peak resident memory in
 * MiB and CPU in cores under 4 clients sending the area's heavy requests for 10 s. An area not
 * listed yet gets the largest figures until it is measured.
 */
const MEASURED: Readonly<Record<string, { peakMiB: number; cores: number }>> = {
  agriculture: { peakMiB: 439, cores: 0.56 },
  tiles: { peakMiB: 568, cores: 1.42 },
  insight: { peakMiB: 278, cores: 0.43 },
  platform: { peakMiB: 283, cores: 0.37 },
  model: { peakMiB: 291, cores: 0.4 },
  observations: { peakMiB: 258, cores: 0.43 },
  transfer: { peakMiB: 473, cores: 0.21 },
  events: { peakMiB: 286, cores: 0.62 },
  archive: { peakMiB: 392, cores: 0.43 },
  alerts: { peakMiB: 285, cores: 0.6 },
  console: { peakMiB: 173, cores: 0.23 },
};

const roundUp = (value: number, step: number) => Math.ceil(value / step) * step;

/**
 * A pod's requests and limits: memory requested a quarter above the measured peak (in 64 MiB
 * steps), limited at twice that, so a larger request than the bench's is not OOM-killed; CPU
 * requested at half the cores used under the bench load (the autoscaler adds pods at 70 % of it),
 * limited at one core per thread the pod computes on (its event loop and each compute thread).
 * `storage`, MiB of ephemeral storage (emptyDir volumes, logs) requested and limited, for a pod
 * whose volumes fill more than a node keeps free as a rule.
 */
export function podResources(area: string, storage?: { requestMi: number; limitMi: number }): string {
  const largest = Object.values(MEASURED).reduce((a, b) => ({
    peakMiB: Math.max(a.peakMiB, b.peakMiB),
    cores: Math.max(a.cores, b.cores),
  }));
  const { peakMiB, cores } = MEASURED[area] ?? largest;
  const memory = roundUp(peakMiB * 1.25, 64);
  const cpu = roundUp(cores * 500, 50);
  const requested = storage ? `, ephemeral-storage: ${storage.requestMi}Mi` : '';
  const limited = storage ? `, ephemeral-storage: ${storage.limitMi}Mi` : '';
  return `          resources:
            requests: { cpu: ${cpu}m, memory: ${memory}Mi${requested} }
            limits: { cpu: "${1 + (COMPUTE_THREADS[area] ?? 0)}", memory: ${2 * memory}Mi${limited} }
`;
}
