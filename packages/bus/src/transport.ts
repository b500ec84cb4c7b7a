import type { CloudEvent } from './envelope.js';

export interface OutgoingMessage {
  topic: string;
  /** partition key: the resource id, so one resource's events stay in order */
  key: string;
  event: CloudEvent;
}

export interface IncomingMessage {
  topic: string;
  key: string | null;
  /** the raw message value; the consumer parses it, so a poisoned message can be dead-lettered */
  value: string;
  partition: number;
  offset: string;
}

export interface ConsumerLag {
  topic: string;
  partition: number;
  /** the group's committed offset there: how many messages it has consumed */
  consumed: number;
  messages: number;
}

export type MessageHandler = (message: IncomingMessage) => Promise<void>;

export interface Subscription {
  stop(): Promise<void>;
}

/**
 * How outbox relays publish and the events service consumes. Delivery is at least once;
 * consumers are idempotent on the CloudEvent id.
 */
export interface Transport {
  readonly kind: 'in-process' | 'kafka';
  /**
   * Publishes in the order given; resolves once every message is acknowledged. Kafka's
   * acknowledgement keeps a message for every consumer group. The in-process bus's keeps it only as
   * long as the process: it calls `consumed` with a message's index once every consumer group of
   * the process that reads its topic has consumed it, and Kafka never calls it
   * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
   */
  publish(messages: OutgoingMessage[], consumed?: (index: number) => void): Promise<void>;
  /** Makes sure the topics exist (Kafka creates them up front). */
  ensureTopics(topics: string[]): Promise<void>;
  /**
   * Consumes every topic matching the pattern, now or created later, in consumer group `group`.
   * The handler is awaited per message; a throw is retried (the message is not committed).
   */
  subscribe(group: string, pattern: RegExp, handler: MessageHandler): Promise<Subscription>;
  /**
   * Messages of each partition a consumer group has not yet consumed (the log's end offset less
   * the group's committed one), for the topics matching the pattern; rejects while the broker is
   * unreachable.
   */
  lag(group: string, pattern: RegExp): Promise<ConsumerLag[]>;
  /** true when the broker is reachable */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
