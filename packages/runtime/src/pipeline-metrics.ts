import type { Transport } from '@fieldcast/bus';
import type { Outbox } from '@fieldcast/db';
import type { MetricSource } from '@fieldcast/kit';

/** A consumer group of a service, the topics it reads, and how many messages this process handled, by outcome. */
export interface ConsumedTopics {
  group: string;
  topics: RegExp;
  outcomes: ReadonlyMap<string, number>;
}

/**
 * The events pipeline's figures in a service's /metrics (docs/operations.md, "Metrics"): its
 * outbox's backlog and publish failures, whether the broker answers, and how far behind each of
 * its consumer groups is, per topic and partition. A figure the broker must give is left out of
 * a scrape while the broker is down: broker_connected says so. Messages handled are counted per
 * process and outcome (the events service's `stored`, `duplicate` and `dead_lettered`).
 */
export function pipelineMetrics(
  outbox: Outbox | undefined,
  transport: Transport | undefined,
  consumers: () => readonly ConsumedTopics[],
): MetricSource[] {
  const sources: MetricSource[] = [];
  if (outbox) {
    sources.push(
      {
        name: 'fieldcast_outbox_unsent_rows',
        help: 'Changes written to the outbox and not yet acknowledged by the broker (on the in-process bus: not yet consumed by every group reading them)',
        type: 'gauge',
        read: async () => [{ value: (await outbox.backlog()).rows }],
      },
      {
        name: 'fieldcast_outbox_oldest_unsent_seconds',
        help: 'How long the oldest unsent change has waited in the outbox (0 when none)',
        type: 'gauge',
        read: async () => [{ value: (await outbox.backlog()).oldestSeconds }],
      },
      {
        name: 'fieldcast_outbox_publish_failures_total',
        help: 'Publishes of the outbox relay that failed and were retried',
        type: 'counter',
        read: async () => [{ value: outbox.publishFailures }],
      },
    );
  }
  if (transport) {
    sources.push(
      {
        name: 'fieldcast_broker_connected',
        help: 'Whether the broker answers (1) or not (0)',
        type: 'gauge',
        read: async () => [{ value: (await transport.ready()) ? 1 : 0 }],
      },
      {
        name: 'fieldcast_consumer_lag_messages',
        help: 'Messages of a partition a consumer group has not yet consumed',
        type: 'gauge',
        labelNames: ['group', 'topic', 'partition'],
        read: async () => {
          const out: { labels: Record<string, string | number>; value: number }[] = [];
          for (const { group, topics } of consumers()) {
            const lag = await transport.lag(group, topics).catch(() => []);
            for (const l of lag) out.push({ labels: { group, topic: l.topic, partition: l.partition }, value: l.messages });
          }
          return out;
        },
      },
      {
        name: 'fieldcast_consumer_messages_total',
        help: 'Messages this process consumed, per consumer group and outcome (stored, duplicate, dead_lettered, handled)',
        type: 'counter',
        labelNames: ['group', 'outcome'],
        read: async () =>
          consumers().flatMap(({ group, outcomes }) => [...outcomes].map(([outcome, value]) => ({ labels: { group, outcome }, value }))),
      },
    );
  }
  return sources;
}
