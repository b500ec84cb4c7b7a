import { isDeepStrictEqual } from 'node:util';
import type { Knex } from 'knex';
import { createTransaction } from './idempotency-keys.js';
import type { Outbox } from './outbox.js';

/** What every owned resource's record has: its id and the account that owns it. */
export interface OwnedRecord {
  id: string;
  accountId: string;
}

/**
 * How one kind of owned resource is kept in its service's schema. The table has at least
 * `id uuid primary key`, `account_id uuid`, `created_at` and `updated_at timestamptz`, and an
 * index on (account_id, created_at, id) for the oldest-first list.
 */
export interface OwnedResourceTable<R extends OwnedRecord> {
  /** the service's area, which is also its schema (docs/architecture.md §4) */
  area: string;
  table: string;
  /** singular snake_case name, as in the event type `fieldcast.<kind>.<action>` */
  kind: string;
  /** the topic its changes go to, `fieldcast.<area>.<resources>` (bus topicFor) */
  topic: string;
  /** the columns a record is read from; naming them skips decoding the timestamps, which no record needs */
  columns: readonly string[];
  fromRow(row: Record<string, unknown>): R;
  /** the columns of a record, `id` and `account_id` included; the store sets the timestamps */
  toRow(record: R): Record<string, unknown>;
  /**
   * The creation time a record carries, where its create answer shows one: stored as it is, so
   * the answer and every read agree (else the store's clock, read when it writes).
   */
  createdAt?(record: R): Date;
  /** the resource as its events carry it (CloudEvent `data.resource`: after the change, or before a deletion) */
  snapshot(record: R): unknown;
  /** resources an event about this one should also be found through (CloudEvent `data.related`) */
  related?(record: R): { namespace: string; id: string }[];
}

/** A page of a list: at most `limit` records, after the record of id `after` when given. */
interface ListPage {
  limit: number;
  after?: string;
}

/**
 * The most stored bytes a list page reads past its first record (PostgreSQL's pg_column_size of
 * each row, compressed as stored): 1,000 fields of 20,000 positions are about 800 MB of JSON,
 * beyond what a replica's memory, and V8's longest string, hold. A page stops before the record
 * that would pass it, and says more remain.
 */
export const LIST_PAGE_BYTES = 32 << 20;

/**
 * A condition a replace or delete puts on the record as stored (an If-Match, the kit's
 * ifMatchCheck): it throws to refuse the change. It runs on the row locked for the change, in the
 * change's transaction, so a concurrent change of the same record waits and is judged on what the
 * first one wrote; its throw rolls the transaction back and writes nothing.
 */
export type Precondition<R> = (stored: R) => void;

/** Event actions of an owned resource's changes (CloudEvent type `fieldcast.<kind>.<action>`). */
const OWNED_RESOURCE_ACTIONS = { create: 'created', replace: 'updated', remove: 'deleted' } as const;

/**
 * Records by id, kept by a process that is the database's only writer. Every write through the
 * store invalidates its id before it starts and after it ends; a read fills the cache only if
 * no write began or ended while it read (the token).
 */
export interface RecordCache<R extends OwnedRecord> {
  get(id: string): R | undefined;
  readStarted(): number;
  fill(token: number, record: R): void;
  invalidate(id: string): void;
}

/**
 * The store of an owned resource: each account reads and changes only its own records, another
 * account's id reads as a missing one, null (docs/interface.md, ownership), and every change
 * writes its outbox event in the same transaction (docs/architecture.md §5). The HTTP side is the
 * kit's ownedResourceRoutes.
 */
export class OwnedResourceStore<R extends OwnedRecord> {
  constructor(
    private readonly knex: Knex,
    private readonly outbox: Outbox,
    private readonly now: () => Date,
    private readonly spec: OwnedResourceTable<R>,
    /** only where this process is the database's one writer (embedded PGlite) */
    private readonly cache: RecordCache<R> | null = null,
    private readonly pageBytes = LIST_PAGE_BYTES,
  ) {}

  private rows(db: Knex | Knex.Transaction = this.knex) {
    return db.withSchema(this.spec.area).table(this.spec.table);
  }

  /**
   * One page of the account's records, oldest first (ties by id, so the order is stable): at most
   * `limit`, after the record `after` when given (a keyset cursor, docs/decisions/0061-bounded-lists.md),
   * and whether more remain; the page ends early where its rows pass `pageBytes` (LIST_PAGE_BYTES),
   * counted in SQL so that rows past it are never sent. Null when `after` is no record of the account's.
   */
  async list(accountId: string, page: ListPage): Promise<{ records: R[]; more: boolean } | null> {
    const candidates = this.rows()
      .select([...new Set([...this.spec.columns, 'created_at'])])
      .select(this.knex.raw('pg_column_size(??.*) as page_bytes', [this.spec.table]))
      .where({ account_id: accountId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(page.limit + 1);
    if (page.after !== undefined) {
      // Compared in SQL, row against row, so the cursor's timestamp keeps its full precision.
      const cursor = this.rows().select('created_at', 'id').where({ id: page.after, account_id: accountId });
      candidates.whereRaw('(created_at, id) > ?', [cursor]);
    }
    const counted = this.knex
      .select('*')
      .select(this.knex.raw('sum(page_bytes) over (order by created_at, id) - page_bytes as bytes_before'))
      .select(this.knex.raw('count(*) over () as candidates'))
      .from(candidates.as('candidates'));
    const rows: Record<string, unknown>[] = await this.knex
      .select([...this.spec.columns, 'candidates'])
      .from(counted.as('counted'))
      .where('bytes_before', '<', this.pageBytes)
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    if (rows.length === 0 && page.after !== undefined && !(await this.owns(accountId, page.after))) return null;
    const kept = rows.slice(0, page.limit);
    const more = rows.length > page.limit || (rows.length > 0 && Number(rows[0]!.candidates) > rows.length);
    return { records: await this.served(kept.map((row) => this.spec.fromRow(row))), more };
  }

  /**
   * The records as reads serve them, read through `db`: as stored by default; a kind that shows
   * what other tables hold adds it here, so a read, a replace's answer and the record a
   * precondition judges (whose entity tag must be the read's) show the same.
   */
  protected async served(records: R[], _db: Knex | Knex.Transaction = this.knex): Promise<R[]> {
    return records;
  }

  private async servedOne(record: R, db: Knex | Knex.Transaction): Promise<R> {
    return (await this.served([record], db))[0]!;
  }

  private async owns(accountId: string, id: string): Promise<boolean> {
    return (await this.rows().select('id').where({ id, account_id: accountId }).first()) !== undefined;
  }

  /** The account's record; null for an unknown id and for another account's alike. */
  async get(accountId: string, id: string): Promise<R | null> {
    const cached = this.cache?.get(id);
    if (cached) return cached.accountId === accountId ? this.servedOne(cached, this.knex) : null;
    const token = this.cache?.readStarted() ?? 0;
    const row: Record<string, unknown> | undefined = await this.rows()
      .select([...this.spec.columns])
      .where({ id, account_id: accountId })
      .first();
    if (!row) return null;
    const record = this.spec.fromRow(row);
    this.cache?.fill(token, record);
    return this.servedOne(record, this.knex);
  }

  /**
   * Creates the record; null, and nothing written, when its account already owns `maxPerAccount`
   * records of this kind (docs/decisions/0061-bounded-lists.md).
   */
  async create(record: R, maxPerAccount = Infinity): Promise<R | null> {
    const now = this.spec.createdAt?.(record) ?? this.now();
    // A create's transaction keeps its answer for an Idempotency-Key too (idempotency-keys.ts).
    return this.writing(record.id, () =>
      createTransaction(this.knex, async (trx) => {
        await this.admit(trx, record);
        if (Number.isFinite(maxPerAccount)) {
          // One account's creates of one kind take turns, so two at once cannot both pass the cap.
          await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`${this.spec.area}.${this.spec.table} ${record.accountId}`]);
          const atCap = await this.rows(trx)
            .select('id')
            .where({ account_id: record.accountId })
            .offset(Math.max(0, maxPerAccount - 1))
            .first();
          if (atCap) return null;
        }
        await this.rows(trx).insert({ ...this.spec.toRow(record), created_at: now, updated_at: now });
        await this.publish(trx, record, OWNED_RESOURCE_ACTIONS.create, now);
        return this.servedOne(record, trx);
      }),
    );
  }

  /**
   * Replaces the account's record of `record.id`; null when it has none (no upsert). A record that
   * shows as the stored one does (its snapshot) is no change: nothing is written and no event says
   * it was updated, so a client that sends the same body again wakes no webhook and no alert.
   * `precondition` is judged on the stored record first (Precondition).
   */
  async replace(record: R, precondition?: Precondition<R>): Promise<R | null> {
    const now = this.now();
    return this.writing(record.id, () =>
      this.knex.transaction(async (trx) => {
        await this.admit(trx, record);
        const stored: Record<string, unknown> | undefined = await this.rows(trx)
          .select([...this.spec.columns])
          .where({ id: record.id, account_id: record.accountId })
          .forUpdate()
          .first();
        if (!stored) return null;
        const before = this.spec.fromRow(stored);
        if (precondition) precondition(await this.servedOne(before, trx));
        if (isDeepStrictEqual(this.spec.snapshot(before), this.spec.snapshot(record))) return this.servedOne(record, trx);
        const { id: _id, account_id: _account, ...changes } = this.spec.toRow(record);
        await this.rows(trx)
          .where({ id: record.id, account_id: record.accountId })
          .update({ ...changes, updated_at: now });
        await this.changed(trx, record, before);
        await this.publish(trx, record, OWNED_RESOURCE_ACTIONS.replace, now);
        return this.servedOne(record, trx);
      }),
    );
  }

  /**
   * What a create or replace of `record` must find in other tables, checked first in its
   * transaction, before the record's own row or the account's cap is locked; it throws to refuse
   * the write. Nothing by default. A kind whose records another writer deletes when what they name
   * goes locks that here, so the two take turns, and always before its own rows, as that writer
   * does, so they never wait on each other in a cycle.
   */
  protected async admit(_trx: Knex.Transaction, _record: R): Promise<void> {}

  /** What else a replace that changed the record (`before` as it was stored) makes stale, in its transaction; nothing by default. */
  protected async changed(_trx: Knex.Transaction, _record: R, _before: R): Promise<void> {}

  /**
   * Deletes the account's record and returns it as it was; null when it has none. With a
   * `precondition`, the row is locked and judged first (Precondition).
   */
  async remove(accountId: string, id: string, precondition?: Precondition<R>): Promise<R | null> {
    const now = this.now();
    return this.writing(id, () =>
      this.knex.transaction(async (trx) => {
        if (precondition) {
          const stored: Record<string, unknown> | undefined = await this.rows(trx)
            .select([...this.spec.columns])
            .where({ id, account_id: accountId })
            .forUpdate()
            .first();
          if (!stored) return null;
          precondition(await this.servedOne(this.spec.fromRow(stored), trx));
        }
        const [row] = await this.rows(trx)
          .where({ id, account_id: accountId })
          .delete()
          .returning([...this.spec.columns]);
        if (!row) return null;
        const record = this.spec.fromRow(row as Record<string, unknown>);
        await this.publish(trx, record, OWNED_RESOURCE_ACTIONS.remove, now);
        return record;
      }),
    );
  }

  /** Runs a write of record `id` with its cache entry dropped before it starts and after it ends. */
  private async writing<T>(id: string, write: () => Promise<T>): Promise<T> {
    this.cache?.invalidate(id);
    try {
      return await write();
    } finally {
      this.cache?.invalidate(id);
    }
  }

  private publish(trx: Knex.Transaction, record: R, action: string, time: Date): Promise<void> {
    const related = this.spec.related?.(record);
    return this.outbox.add(trx, this.spec.topic, {
      area: this.spec.area,
      resource: this.spec.kind,
      action,
      subject: record.id,
      time,
      data: { account: record.accountId, resource: this.spec.snapshot(record), ...(related ? { related } : {}) },
    });
  }
}
