import type { ConsumerLag, IncomingMessage, MessageHandler, OutgoingMessage, Subscription, Transport } from './transport.js';

interface Entry {
  key: string;
  value: string;
  /** the publisher's, called once every group reading the topic has consumed the message */
  consumed?: (() => void) | undefined;
}

/**
 * A topic's one partition, from the oldest message held: `entries[i]` is at offset `base + i`, and
 * those before `head` have been consumed by every group. They are sliced off once they are as many
 * as the rest, so dropping a message costs O(1) amortised and the array is at most twice what is held.
 */
interface Log {
  entries: Entry[];
  head: number;
  base: number;
  /** the offset below which the publishers have been told their messages were consumed */
  told: number;
}

/** One subscription of a group: its handler and the loop that delivers to it. */
interface Member {
  handler: MessageHandler;
  running: boolean;
  stopped: boolean;
  idle: Promise<void>;
}

interface GroupState {
  /** the topics of its last subscription */
  pattern: RegExp;
  /** committed: the next offset to deliver per topic; kept when its subscription stops */
  offsets: Map<string, number>;
  member: Member | null;
}

/**
 * The embedded runtime's transport: a log per topic held in memory, with consumer groups that
 * commit offsets, so delivery order and the at-least-once contract match Kafka's.
 *
 * It holds only what a group can still read (docs/decisions/0500-embedded-bus-keeps-what-is-unread.md).
 * A group is known once it has subscribed, and stays known, with its committed offsets, after its
 * subscription stops, as Kafka keeps a group's offsets after its consumers leave; subscribed again,
 * it resumes there. Once `startTrimming` is called, a message every known group whose pattern
 * matches its topic has consumed is dropped, and so is one of a topic no known group reads; before
 * it, nothing is. Offsets stay those of the whole log. A group with nothing committed on a topic
 * starts at the oldest message held there (Kafka's `auto.offset.reset=earliest` on retained data):
 * from the first one published while trimming has not started.
 *
 * What it holds ends with the process, so its acknowledgement of a publish is not Kafka's: a
 * publisher is also told when every known group reading a message's topic has consumed it, or at
 * once when none reads it, and an outbox marks its row sent only then
 * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md). Between `awaitGroups` and
 * `startTrimming` nothing is told, since a group still to subscribe may read any topic.
 */
export class InProcessTransport implements Transport {
  readonly kind = 'in-process' as const;
  private readonly logs = new Map<string, Log>();
  private readonly groups = new Map<string, GroupState>();
  private trimming = false;
  private awaiting = false;
  /** simulated outage, for tests of what retries while the broker is away */
  down = false;

  async publish(messages: OutgoingMessage[], consumed?: (index: number) => void): Promise<void> {
    if (this.down) throw new Error('in-process transport is down');
    messages.forEach((m, i) =>
      this.logOf(m.topic).entries.push({ key: m.key, value: JSON.stringify(m.event), consumed: consumed && (() => consumed(i)) }),
    );
    for (const topic of new Set(messages.map((m) => m.topic))) this.advance(topic);
    for (const group of this.groups.values()) this.pump(group);
  }

  async ensureTopics(topics: string[]): Promise<void> {
    if (this.down) throw new Error('in-process transport is down');
    for (const t of topics) this.logOf(t);
  }

  async subscribe(group: string, pattern: RegExp, handler: MessageHandler): Promise<Subscription> {
    if (this.down) throw new Error('in-process transport is down');
    const known = this.groups.get(group);
    if (known?.member) throw new Error(`consumer group ${group} is already subscribed`);
    const member: Member = { handler, running: false, stopped: false, idle: Promise.resolve() };
    const state: GroupState = known ?? { pattern, offsets: new Map(), member: null };
    state.pattern = pattern;
    state.member = member;
    this.groups.set(group, state);
    this.pump(state);
    return {
      stop: async () => {
        member.stopped = true;
        if (state.member === member) state.member = null;
        await member.idle;
      },
    };
  }

  /**
   * Tells no publisher of a message consumed until `startTrimming`: called before the consumer
   * groups of the process subscribe, since one still to subscribe may read what the others have
   * consumed, or a topic none of them reads yet.
   */
  awaitGroups(): void {
    this.awaiting = true;
  }

  /**
   * Drops, from now on, what every known group has consumed, and tells its publishers: called once
   * every consumer group of the process has subscribed, since one that subscribes later would find
   * gone what the others consumed before it (at start, an area's outbox publishes before a later
   * area's groups join).
   */
  startTrimming(): void {
    this.trimming = true;
    this.awaiting = false;
    for (const topic of this.logs.keys()) this.advance(topic);
  }

  /** How many messages of a topic are held in memory. */
  held(topic: string): number {
    const log = this.logs.get(topic);
    return log ? log.entries.length - log.head : 0;
  }

  /** One partition per topic; a group with nothing committed there is at the oldest message held. */
  async lag(group: string, pattern: RegExp): Promise<ConsumerLag[]> {
    if (this.down) throw new Error('in-process transport is down');
    const state = this.groups.get(group);
    return [...this.logs]
      .filter(([topic]) => pattern.test(topic))
      .map(([topic, log]) => {
        const consumed = positionOf(state, topic, log);
        return { topic, partition: 0, consumed, messages: endOf(log) - consumed };
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
      const behind = [...this.groups.values()].filter((g) => g.member && (g.member.running || this.nextMessage(g) !== null));
      if (behind.length === 0) return waited;
      waited = true;
      for (const g of behind) this.pump(g);
      await Promise.all(behind.map((g) => g.member?.idle));
    }
  }

  async ready(): Promise<boolean> {
    return !this.down;
  }

  async close(): Promise<void> {
    const members = [...this.groups.values()].flatMap((g) => (g.member ? [g.member] : []));
    for (const m of members) m.stopped = true;
    this.groups.clear();
    await Promise.all(members.map((m) => m.idle));
  }

  private pump(group: GroupState): void {
    const member = group.member;
    if (!member || member.running || member.stopped) return;
    member.running = true;
    member.idle = this.deliver(group, member).finally(() => {
      member.running = false;
    });
  }

  private async deliver(group: GroupState, member: Member): Promise<void> {
    let failures = 0;
    while (!member.stopped) {
      const next = this.nextMessage(group);
      if (!next) return;
      try {
        await member.handler(next);
        group.offsets.set(next.topic, Number(next.offset) + 1);
        this.advance(next.topic);
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
      const offset = positionOf(group, topic, log);
      const entry = log.entries[offset - log.base];
      if (entry) return { topic, key: entry.key, value: entry.value, partition: 0, offset: String(offset) };
    }
    return null;
  }

  /**
   * Tells the publishers of what every known group reading the topic has consumed, all of it when
   * none reads it, and drops it once trimming.
   */
  private advance(topic: string): void {
    const log = this.logs.get(topic);
    if (!log || this.awaiting) return;
    let keep = endOf(log);
    for (const g of this.groups.values()) if (g.pattern.test(topic)) keep = Math.min(keep, positionOf(g, topic, log));
    for (; log.told < keep; log.told++) {
      const entry = log.entries[log.told - log.base];
      entry?.consumed?.();
      if (entry) entry.consumed = undefined;
    }
    if (!this.trimming) return;
    log.head = keep - log.base;
    if (log.head > 0 && 2 * log.head >= log.entries.length) {
      log.entries = log.entries.slice(log.head);
      log.base = keep;
      log.head = 0;
    }
  }

  private logOf(topic: string): Log {
    let log = this.logs.get(topic);
    if (!log) this.logs.set(topic, (log = { entries: [], head: 0, base: 0, told: 0 }));
    return log;
  }
}

/** The offset after the last message published to the log. */
const endOf = (log: Log) => log.base + log.entries.length;

/**
 * Where a group reads a topic next: its committed offset, or the oldest message held when it has
 * none there or that one is gone (Kafka's `auto.offset.reset=earliest`).
 */
const positionOf = (group: GroupState | undefined, topic: string, log: Log) =>
  Math.max(group?.offsets.get(topic) ?? 0, log.base + log.head);
