import type { Admin, Consumer, Kafka, Producer } from 'kafkajs';
import { TOPIC_PARTITIONS } from './topics.js';
import type { ConsumerLag, MessageHandler, OutgoingMessage, Subscription, Transport } from './transport.js';

export interface KafkaTransportOptions {
  brokers: string[];
  clientId: string;
  /** partitions of topics this transport creates (TOPIC_PARTITIONS) */
  partitions?: number;
  /** how often a subscription looks for new topics that match its pattern */
  topicRefreshMs?: number;
  /**
   * a prefix on every topic and consumer group this transport uses, so fleets that share one
   * broker never see each other's messages (each test fleet of the integration suite); the
   * services still name topics without it
   */
  namespace?: string;
}

/**
 * Kafka through kafkajs. The producer is idempotent with one request in flight, so a retried
 * send never reorders a partition; the message key is the resource id (docs/architecture.md §5).
 */
export class KafkaTransport implements Transport {
  readonly kind = 'kafka' as const;
  /** kafkajs, loaded by the first transport made: a process on the in-process bus never loads it */
  private readonly kafka: Promise<Kafka>;
  private producer: Producer | null = null;
  private admin: Admin | null = null;
  private readonly subscriptions = new Set<KafkaSubscription>();

  private readonly prefix: string;

  constructor(private readonly options: KafkaTransportOptions) {
    this.prefix = options.namespace ?? '';
    this.kafka = import('kafkajs').then(
      ({ Kafka, logLevel }) =>
        new Kafka({
          clientId: options.clientId,
          brokers: options.brokers,
          logLevel: logLevel.NOTHING,
          connectionTimeout: 3000,
          // Fail fast: the outbox relay owns retry with backoff, and a broker outage must not block
          // a publish for minutes.
          retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2000 },
        }),
    );
  }

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const producer = await this.connectedProducer();
    const byTopic = new Map<string, { key: string; value: string; headers: Record<string, string> }[]>();
    for (const m of messages) {
      const topic = this.prefix + m.topic;
      let list = byTopic.get(topic);
      if (!list) byTopic.set(topic, (list = []));
      list.push({ key: m.key, value: JSON.stringify(m.event), headers: { 'content-type': 'application/cloudevents+json; charset=UTF-8' } });
    }
    try {
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, msgs]) => ({ topic, messages: msgs })) });
    } catch (err) {
      // A producer that lost its broker is not always usable again; start a fresh one next time.
      this.producer = null;
      await producer.disconnect().catch(() => undefined);
      throw err;
    }
  }

  async ensureTopics(topics: string[]): Promise<void> {
    const admin = await this.connectedAdmin();
    const existing = new Set(await admin.listTopics());
    const missing = topics.map((t) => this.prefix + t).filter((t) => !existing.has(t));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({ topic, numPartitions: this.options.partitions ?? TOPIC_PARTITIONS, replicationFactor: -1 })),
    });
  }

  async subscribe(group: string, pattern: RegExp, handler: MessageHandler): Promise<Subscription> {
    const sub = new KafkaSubscription(
      this.kafka,
      this.prefix + group,
      this.prefix,
      pattern,
      handler,
      () => this.connectedAdmin(),
      this.options.topicRefreshMs ?? 10_000,
    );
    this.subscriptions.add(sub);
    try {
      await sub.start();
    } catch (err) {
      // the broker is unreachable: nothing of this subscription is kept, the caller retries
      this.subscriptions.delete(sub);
      await sub.stop();
      throw err;
    }
    return {
      stop: async () => {
        this.subscriptions.delete(sub);
        await sub.stop();
      },
    };
  }

  async lag(group: string, pattern: RegExp): Promise<ConsumerLag[]> {
    const admin = await this.connectedAdmin();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(this.prefix) && pattern.test(t.slice(this.prefix.length))).sort();
    if (topics.length === 0) return [];
    const committed = await admin.fetchOffsets({ groupId: this.prefix + group, topics });
    const out: ConsumerLag[] = [];
    for (const { topic, partitions } of committed) {
      const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
      for (const p of partitions) {
        const end = ends.get(p.partition) ?? 0;
        // -1: the group has committed nothing there yet, so everything from the log's start waits
        const at = Number(p.offset) < 0 ? 0 : Number(p.offset);
        out.push({ topic: topic.slice(this.prefix.length), partition: p.partition, consumed: at, messages: Math.max(0, end - at) });
      }
    }
    return out;
  }

  async ready(): Promise<boolean> {
    try {
      const admin = await this.connectedAdmin();
      await admin.describeCluster();
      return true;
    } catch {
      this.admin?.disconnect().catch(() => undefined);
      this.admin = null;
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.subscriptions.clear();
    await this.producer?.disconnect().catch(() => undefined);
    await this.admin?.disconnect().catch(() => undefined);
    this.producer = null;
    this.admin = null;
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      this.producer = await connectOrDispose(
        (await this.kafka).producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false }),
      );
    }
    return this.producer;
  }

  private async connectedAdmin(): Promise<Admin> {
    if (!this.admin) this.admin = await connectOrDispose((await this.kafka).admin());
    return this.admin;
  }
}

/**
 * Connects a kafkajs client, or disconnects it when connecting fails: a client dropped after a
 * failed connect can keep a socket to the broker (seen after a broker outage: the process then
 * lingered until the broker closed idle connections, 10 minutes later).
 */
async function connectOrDispose<C extends { connect(): Promise<void>; disconnect(): Promise<void> }>(client: C): Promise<C> {
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.disconnect().catch(() => undefined);
    throw err;
  }
}

/**
 * How a consumer group recovers (docs/decisions/0280-consumer-recovery-timing.md): a replica that
 * vanished without leaving (kill -9, or stopped while the broker was down) holds its partitions
 * for the session timeout, the broker's minimum; members heartbeat and end a fetch within a
 * second so a rebalance completes quickly; and a consumer that lost the broker retries at most
 * every 2 s, so it is back within seconds of the broker. kafkajs leaves the group on disconnect.
 */
const CONSUMER_TIMING = {
  sessionTimeout: 6_000,
  heartbeatInterval: 1_000,
  rebalanceTimeout: 10_000,
  maxWaitTimeInMs: 1_000,
  retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 2_000 },
} as const;

/**
 * One consumer group member. kafkajs resolves a RegExp subscription once, so the subscription
 * polls the topic list and rebuilds the consumer when a new matching topic appears.
 */
class KafkaSubscription {
  private consumer: Consumer | null = null;
  private topics: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    private readonly kafka: Promise<Kafka>,
    private readonly group: string,
    /** the transport's namespace: topics outside it are not this subscription's, and handlers see names without it */
    private readonly prefix: string,
    private readonly pattern: RegExp,
    private readonly handler: MessageHandler,
    private readonly admin: () => Promise<Admin>,
    private readonly refreshMs: number,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refreshing = this.refreshing.then(() => this.refresh()).catch(() => undefined);
    }, this.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.refreshing.catch(() => undefined);
    await this.consumer?.disconnect().catch(() => undefined);
    this.consumer = null;
  }

  private async refresh(): Promise<void> {
    if (this.stopped) return;
    const all = await (await this.admin()).listTopics();
    const topics = all.filter((t) => t.startsWith(this.prefix) && this.pattern.test(t.slice(this.prefix.length))).sort();
    if (topics.length === 0 || (this.consumer && topics.join() === this.topics.join())) return;
    await this.consumer?.disconnect().catch(() => undefined);
    this.consumer = null;
    const consumer = (await this.kafka).consumer({
      groupId: this.group,
      allowAutoTopicCreation: false,
      ...CONSUMER_TIMING,
      // kafkajs restarts a crashed consumer by itself; never after this subscription was stopped,
      // or the restart reconnects a consumer nobody will disconnect.
      retry: { ...CONSUMER_TIMING.retry, restartOnFailure: async () => !this.stopped },
    });
    // A crash kafkajs does not restart from (an error it deems final) leaves the group for good:
    // the next refresh builds a new consumer.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && this.consumer === consumer) this.consumer = null;
    });
    await connectOrDispose(consumer);
    try {
      await consumer.subscribe({ topics, fromBeginning: true });
      await this.run(consumer);
    } catch (err) {
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
    if (this.stopped) {
      await consumer.disconnect().catch(() => undefined);
      return;
    }
    this.consumer = consumer;
    this.topics = topics;
  }

  private run(consumer: Consumer): Promise<void> {
    return consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        await this.handler({
          topic: topic.slice(this.prefix.length),
          partition,
          offset: message.offset,
          key: message.key ? message.key.toString('utf8') : null,
          value: message.value ? message.value.toString('utf8') : '',
        });
      },
    });
  }
}
