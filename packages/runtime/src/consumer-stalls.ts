import type { ConsumerLag, Transport } from '@fieldcast/bus';
import type { Logger } from '@fieldcast/kit';
import type { ConsumedTopics } from './pipeline-metrics.js';

/** How often a service looks at its consumer groups' progress; a stall shows after two looks. */
export const STALL_CHECK_MS = 10_000;

/**
 * Watches a service's consumer groups and logs, once per stall, a group whose messages wait while
 * its committed offsets stay where they were for a whole check interval (a member that holds
 * partitions and consumes nothing, a handler that keeps failing), and once when it moves again
 * (docs/decisions/0280-consumer-recovery-timing.md). A look the broker cannot answer is skipped:
 * a broker outage is reported as such (fieldcast_broker_connected), not as a stall.
 */
export function watchConsumerStalls(
  transport: Transport,
  consumers: () => readonly ConsumedTopics[],
  logger: Logger,
  intervalMs = STALL_CHECK_MS,
): { stop(): Promise<void> } {
  const last = new Map<string, { consumed: number; waiting: number }>();
  const stalledSince = new Map<string, number>();
  const look = async () => {
    for (const { group, topics } of consumers()) {
      let lag: ConsumerLag[];
      try {
        lag = await transport.lag(group, topics);
      } catch {
        last.delete(group);
        continue;
      }
      const now = { consumed: 0, waiting: 0 };
      for (const l of lag) {
        now.consumed += l.consumed;
        now.waiting += l.messages;
      }
      const before = last.get(group);
      last.set(group, now);
      if (!before) continue;
      const stuck = before.waiting > 0 && now.waiting > 0 && now.consumed === before.consumed;
      const since = stalledSince.get(group);
      if (stuck && since === undefined) {
        stalledSince.set(group, Date.now() - intervalMs);
        logger.warn({ group, waiting: now.waiting }, 'consumer group stalled: messages wait and none was consumed');
      } else if (!stuck && since !== undefined) {
        stalledSince.delete(group);
        logger.info({ group, stalledSeconds: Math.round((Date.now() - since) / 1000) }, 'consumer group consuming again');
      }
    }
  };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(look).catch(() => undefined);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
