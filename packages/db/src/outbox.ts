import type { Knex } from 'knex';
import { resourceEvent, type ResourceEventInput, type Transport } from '@fieldcast/bus';
import type { Database } from './database.js';
import type { Migration } from './migrations.js';

export interface RelayLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OutboxOptions {
  db: Database;
  schema: string;
  transport: Transport;
  logger: RelayLogger;
  batchSize?: number;
  /** a slow poll that covers a missed notification (e.g. after a LISTEN reconnect); not the wake-up path */
  safetyPollMs?: number;
  maxBackoffMs?: number;
  /**
   * How long a sent row stays in the outbox before the relay deletes it (default 7 days): long
   * enough to see what was published and when, short enough that the table does not grow with
   * every write the service ever took.
   */
  retainSentMs?: number;
  /** at most one pruning pass per this interval (default 10 minutes) */
  pruneIntervalMs?: number;
}

/** Rows looked at per pruning statement: the oldest by seq, so each statement is a short index range. */
const PRUNE_BATCH = 5000;

/** The outbox table of one service schema (docs/architecture.md §5). */
export function outboxMigration(): Migration {
  return {
    name: '000_outbox',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('outbox', (t) => {
        t.bigIncrements('seq').primary();
        t.uuid('id').notNullable().unique();
        t.text('topic').notNullable();
        t.text('key').notNullable();
        t.jsonb('event').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('sent_at', { useTz: true });
      });
      await knex.raw('create index outbox_unsent on ??.outbox (seq) where sent_at is null', [schema]);
    },
  };
}

/** Stable 32-bit key for the schema's advisory locks. */
function lockKey(schema: string, purpose: 'write' | 'relay'): number {
  let h = purpose === 'write' ? 0x2545f491 : 0x9e3779b9;
  for (const c of `${schema}:${purpose}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h | 0;
}

/** What a writer of a schema's data needs of its outbox: adding events to a transaction. */
export interface OutboxWriter {
  add<T>(trx: Knex.Transaction, topic: string, input: ResourceEventInput<T>): Promise<void>;
}

/** The PostgreSQL channel a schema's relay listens on, notified by every write. */
function channelOf(schema: string): string {
  return `fieldcast_outbox_${schema}`;
}

/**
 * Adds a resource event to the transaction in the schema's outbox, in commit order (the write
 * lock of `Outbox`), and notifies the schema's relay on PostgreSQL.
 */
async function addToOutbox<T>(
  db: Database,
  schema: string,
  trx: Knex.Transaction,
  topic: string,
  input: ResourceEventInput<T>,
): Promise<void> {
  const event = resourceEvent(input);
  await trx.raw('select pg_advisory_xact_lock(?)', [lockKey(schema, 'write')]);
  await trx
    .withSchema(schema)
    .table('outbox')
    .insert({ id: event.id, topic, key: event.subject, event: JSON.stringify(event) });
  if (db.kind === 'postgres') await trx.raw('select pg_notify(?, ?)', [channelOf(schema), '']);
}

/**
 * Writes events into a service schema's outbox from a process that does not relay them (the
 * fleet's commands): the service's relay publishes them, woken by the notification on PostgreSQL,
 * by its safety poll, or at its next start when the service is not running.
 */
export function outboxWriter(db: Database, schema: string): OutboxWriter {
  return { add: (trx, topic, input) => addToOutbox(db, schema, trx, topic, input) };
}

/**
 * Writes events in the caller's transaction and relays them to the transport.
 *
 * Order: writers take a schema-wide advisory lock from their outbox insert to their commit, so
 * sequence order is commit order; one relay at a time (another advisory lock) publishes rows in
 * sequence order and marks them sent in the same transaction. A failed publish rolls back and is
 * retried with backoff from the same row, so nothing is skipped or reordered. A crash between
 * publish and commit republishes: consumers are idempotent on the CloudEvent id.
 *
 * The in-process bus keeps what it was sent only as long as the process, so there a row is marked
 * sent once every consumer group of the process that reads its topic has consumed it, in one
 * statement for what was consumed since the last pass; until then it stays unsent, so the next
 * process publishes it again, and this relay publishes only rows after the last it published
 * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
 */
export class Outbox implements OutboxWriter {
  private readonly batchSize: number;
  private readonly safetyPollMs: number;
  private readonly maxBackoffMs: number;
  private readonly channel: string;
  private readonly retainSentMs: number;
  private readonly pruneIntervalMs: number;
  private lastPrune = 0;
  private running: Promise<void> | null = null;
  private again = false;
  private failures = 0;
  private failedPublishes = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private stopped = true;
  /** on the in-process bus: the last row this relay published, which the bus holds until consumed */
  private publishedThrough = 0;
  /** on the in-process bus: rows whose messages every consumer group has consumed, to mark sent */
  private consumed: number[] = [];

  constructor(private readonly options: OutboxOptions) {
    this.batchSize = options.batchSize ?? 200;
    this.safetyPollMs = options.safetyPollMs ?? 5000;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.channel = channelOf(options.schema);
    this.retainSentMs = options.retainSentMs ?? 7 * 86_400_000;
    this.pruneIntervalMs = options.pruneIntervalMs ?? 600_000;
  }

  /** Adds a resource event to the transaction; it is relayed once the transaction commits. */
  async add<T>(trx: Knex.Transaction, topic: string, input: ResourceEventInput<T>): Promise<void> {
    await addToOutbox(this.options.db, this.options.schema, trx, topic, input);
    trx.executionPromise.then(
      () => this.wake(),
      () => undefined,
    );
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.unlisten = await this.options.db.listen(this.channel, () => this.wake());
    this.pollTimer = setInterval(() => this.wake(), this.safetyPollMs);
    this.pollTimer.unref();
    this.wake();
  }

  /** Publishes whatever is pending now; many wakes while running fold into one more pass. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.retryTimer) return; // backing off: the timer will run it
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.retryTimer) {
        this.again = false;
        this.wake();
      }
    });
  }

  /**
   * Publishes what is pending now and resolves when that is done, or when a publish failed (its
   * retry is the relay's, as ever): the first step of a shutdown that hands over what was written
   * before any consumer stops.
   */
  async flush(): Promise<void> {
    this.wake();
    while (this.running) await this.running;
  }

  /** Stops waking; first tries once more to publish what is pending (graceful shutdown). */
  async stop(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.running;
    if (!this.stopped && this.failures === 0) await this.drain();
    this.stopped = true;
    await this.unlisten?.();
  }

  /** Rows not yet acknowledged by the transport (on the in-process bus: not yet consumed by every group reading them). */
  async pending(): Promise<number> {
    return (await this.backlog()).rows;
  }

  /** The rows `pending` counts, and how long the oldest has waited (0 when none), seconds. */
  async backlog(): Promise<{ rows: number; oldestSeconds: number }> {
    const { rows } = await this.options.db.knex.raw(
      'select count(*) as n, coalesce(extract(epoch from now() - min(created_at)), 0) as age from ??.outbox where sent_at is null',
      [this.options.schema],
    );
    return { rows: Number(rows[0]?.n ?? 0), oldestSeconds: Math.max(0, Number(rows[0]?.age ?? 0)) };
  }

  /** Publishes that failed since the relay was made (each is retried). */
  get publishFailures(): number {
    return this.failedPublishes;
  }

  private async drain(): Promise<void> {
    try {
      await this.markConsumed();
      while (await this.publishBatch()) {
        /* keep going while full batches come back */
      }
      this.failures = 0;
      if (Date.now() - this.lastPrune >= this.pruneIntervalMs) {
        this.lastPrune = Date.now();
        await this.prune();
      }
    } catch (err) {
      this.failures += 1;
      this.failedPublishes += 1;
      const delay = Math.min(100 * 2 ** this.failures, this.maxBackoffMs);
      this.options.logger.warn({ err: String(err), schema: this.options.schema, retryInMs: delay }, 'outbox publish failed; will retry');
      if (!this.stopped) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.wake();
        }, delay);
        this.retryTimer.unref();
      }
    }
  }

  /**
   * Deletes rows sent more than `retainSentMs` ago; unsent rows are never touched. The relay
   * publishes in seq order, so the oldest rows by seq are the earliest sent: each statement looks
   * at the first PRUNE_BATCH rows of the primary key only, and the pass stops at the first batch
   * that was not wholly old enough. Returns the number of rows deleted.
   */
  async prune(): Promise<number> {
    const { knex } = this.options.db;
    const cutoff = new Date(Date.now() - this.retainSentMs);
    let deleted = 0;
    for (;;) {
      const result = await knex.raw(
        `delete from ??.outbox where seq in (select seq from ??.outbox order by seq limit ${PRUNE_BATCH}) and sent_at is not null and sent_at < ?`,
        [this.options.schema, this.options.schema, cutoff],
      );
      const count = Number(
        (result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0,
      );
      deleted += count;
      if (count < PRUNE_BATCH) return deleted;
    }
  }

  /** Marks sent, in one statement, the rows the in-process bus has said were consumed; kept to mark again if it fails. */
  private async markConsumed(): Promise<void> {
    if (this.consumed.length === 0) return;
    const seqs = this.consumed.splice(0);
    try {
      await this.options.db.knex.raw('update ??.outbox set sent_at = now() where seq = any(?::bigint[])', [this.options.schema, seqs]);
    } catch (err) {
      this.consumed.push(...seqs);
      throw err;
    }
  }

  /** Returns true when a full batch was sent and more may be waiting. */
  private async publishBatch(): Promise<boolean> {
    const { knex } = this.options.db;
    const { schema, transport } = this.options;
    const heldByProcess = transport.kind === 'in-process';
    return knex.transaction(async (trx) => {
      const locked = await trx.raw('select pg_try_advisory_xact_lock(?) as ok', [lockKey(schema, 'relay')]);
      if (!locked.rows[0]?.ok) return false; // another replica's relay is publishing this schema
      const unsent = trx.withSchema(schema).table('outbox').whereNull('sent_at');
      if (heldByProcess) unsent.where('seq', '>', this.publishedThrough);
      const rows: { seq: number; topic: string; key: string; event: unknown }[] = await unsent
        .orderBy('seq')
        .limit(this.batchSize)
        .select('seq', 'topic', 'key', 'event');
      if (rows.length === 0) return false;
      const messages = rows.map((r) => ({
        topic: r.topic,
        key: r.key,
        event: (typeof r.event === 'string' ? JSON.parse(r.event) : r.event) as never,
      }));
      if (heldByProcess) {
        await transport.publish(messages, (i) => {
          this.consumed.push(Number(rows[i]!.seq));
          this.wake();
        });
        this.publishedThrough = Number(rows[rows.length - 1]!.seq);
        return rows.length === this.batchSize;
      }
      await transport.publish(messages);
      await trx
        .withSchema(schema)
        .table('outbox')
        .whereIn(
          'seq',
          rows.map((r) => r.seq),
        )
        .update({ sent_at: trx.fn.now() });
      return rows.length === this.batchSize;
    });
  }
}
