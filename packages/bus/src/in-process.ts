import type { ConsumerLag, IncomingMessage, MessageHandler, OutgoingMessage, Subscription, Transport } from './transport.js';

interface GroupState {
  pattern: RegExp;
  handler: MessageHandler;
  /** next offset to deliver per topic */
  offsets: Map<string, number>;
  running: boolean;
  stopped: boolean;
  idle: Promise<void>;
}

/**
 * The embedded runtime's transport: an append-only log per topic held in memory, with consumer
 * groups that keep offsets, so delivery order and the at-least-once contract match Kafka's.
 */
export class InProcessTransport implements Transport {
  readonly kind = 'in-process' as const;
  private readonly logs = new Map<string, string[]>();
  private readonly keys = new Map<string, string[]>();
  private readonly groups = new Map<string, GroupState>();
  /** simulated outage, for tests of what retries while the broker is away */
  down = false;

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (this.down) throw new Error('in-process transport is down');
    for (const m of messages) {
      this.logOf(m.topic).push(JSON.stringify(m.event));
      this.keysOf(m.topic).push(m.key);
    }
    for (const group of this.groups.values()) this.pump(group);
  }

  async ensureTopics(topics: string[]): Promise<void> {
    if (this.down) throw new Error('in-process transport is down');
    for (const t of topics) this.logOf(t);
  }

  async subscribe(group: string, pattern: RegExp, handler: MessageHandler): Promise<Subscription> {
    if (this.down) throw new Error('in-process transport is down');
    if (this.groups.has(group)) throw new Error(`consumer group ${group} is already subscribed`);
    const state: GroupState = { pattern, handler, offsets: new Map(), running: false, stopped: false, idle: Promise.resolve() };
    this.groups.set(group, state);
    this.pump(state);
    return {
      stop: async () => {
        state.stopped = true;
        this.groups.delete(group);
        await state.idle;
      },
    };
  }

  /** One partition per topic; a group that is not subscribed has consumed nothing. */
  async lag(group: string, pattern: RegExp): Promise<ConsumerLag[]> {
    if (this.down) throw new Error('in-process transport is down');
    const offsets = this.groups.get(group)?.offsets;
    return [...this.logs]
      .filter(([topic]) => pattern.test(topic))
      .map(([topic, log]) => {
        const consumed = offsets?.get(topic) ?? 0;
        return { topic, partition: 0, consumed, messages: log.length - consumed };
      });
  }

  /**
   * Resolves once every subscribed group has taken every message of its topics published so far,
   * and says whether any was waiting: what is left in the log when the process ends is gone, so a
   * shutdown waits for this before any consumer stops. A handler that keeps failing keeps it
   * waiting: the caller bounds the wait.
   */
  async settle(): Promise<boolean> {
    let waited = false;
    for (;;) {
      const behind = [...this.groups.values()].filter((g) => g.running || this.nextMessage(g) !== null);
      if (behind.length === 0) return waited;
      waited = true;
      for (const g of behind) this.pump(g);
      await Promise.all(behind.map((g) => g.idle));
    }
  }

  async ready(): Promise<boolean> {
    return !this.down;
  }

  async close(): Promise<void> {
    const groups = [...this.groups.values()];
    for (const g of groups) g.stopped = true;
    this.groups.clear();
    await Promise.all(groups.map((g) => g.idle));
  }

  private pump(group: GroupState): void {
    if (group.running || group.stopped) return;
    group.running = true;
    group.idle = this.deliver(group).finally(() => {
      group.running = false;
    });
  }

  private async deliver(group: GroupState): Promise<void> {
    let failures = 0;
    while (!group.stopped) {
      const next = this.nextMessage(group);
      if (!next) return;
      try {
        await group.handler(next);
        group.offsets.set(next.topic, Number(next.offset) + 1);
        failures = 0;
      } catch {
        // Not committed: the same message is delivered again, after a growing pause (Kafka
        // semantics for a handler that throws).
        failures += 1;
        await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** failures, 2000)));
      }
    }
  }

  private nextMessage(group: GroupState): IncomingMessage | null {
    for (const [topic, log] of this.logs) {
      if (!group.pattern.test(topic)) continue;
      const offset = group.offsets.get(topic) ?? 0;
      if (offset < log.length) {
        return { topic, key: this.keysOf(topic)[offset] ?? null, value: log[offset]!, partition: 0, offset: String(offset) };
      }
    }
    return null;
  }

  private logOf(topic: string): string[] {
    let log = this.logs.get(topic);
    if (!log) this.logs.set(topic, (log = []));
    return log;
  }

  private keysOf(topic: string): string[] {
    let keys = this.keys.get(topic);
    if (!keys) this.keys.set(topic, (keys = []));
    return keys;
  }
}
