import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { Migration } from './migrations.js';

/**
 * How long a create's answer is kept for its Idempotency-Key (draft-ietf-httpapi-idempotency-key-header
 * section 2.3: the server publishes its expiry; docs/interface.md §1). A retry after it creates again.
 */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 3_600_000;

/** The table's name in each area's schema. */
const TABLE = 'idempotency_keys';

/** The migrations made by idempotencyKeysMigration, so the runtime knows which schemas keep keys. */
const keeping = new WeakSet<Migration>();

/** The migrations made by keptAnswerTagsMigration: a schema that keeps keys keeps their answers' tags too. */
const keepingTags = new WeakSet<Migration>();

/**
 * The migration that gives an area's schema its kept answers (docs/decisions/0434-creates-answered-again-under-an-idempotency-key.md): one row per
 * account and key, written in the transaction of the create it answered, so neither outlives the
 * other; the primary key is what decides between replicas.
 */
export function idempotencyKeysMigration(name: string): Migration {
  const migration: Migration = {
    name,
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable(TABLE, (t) => {
        t.uuid('account_id').notNullable();
        t.text('key').notNullable();
        t.text('fingerprint').notNullable();
        t.smallint('status').notNullable();
        t.text('location');
        t.text('body').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.primary(['account_id', 'key']);
        t.index(['expires_at'], `${TABLE}_expiry`);
      });
    },
  };
  keeping.add(migration);
  return migration;
}

/**
 * The migration, after idempotencyKeysMigration, that keeps with each answer its ETag (null: it
 * had none), so an answer sent again carries the entity tag the first did and a client that
 * retried its create can name it in If-Match (RFC 9110 section 13.1.1;
 * docs/decisions/0462-a-replayed-create-carries-its-etag.md). Only added: an answer kept by the
 * previous release has none (docs/decisions/0419-migrations-keep-the-previous-release-working.md).
 */
export function keptAnswerTagsMigration(name: string): Migration {
  const migration: Migration = {
    name,
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable(TABLE, (t) => {
        t.text('etag');
      });
    },
  };
  keepingTags.add(migration);
  return migration;
}

/**
 * Whether a schema's migrations make its table of idempotency keys. One that makes it without
 * the column of their answers' tags is refused, as the keeping of an answer would fail.
 */
export function keepsIdempotencyKeys(migrations: readonly Migration[]): boolean {
  if (!migrations.some((m) => keeping.has(m))) return false;
  if (!migrations.some((m) => keepingTags.has(m)))
    throw new Error(
      'A schema that keeps idempotency keys (idempotencyKeysMigration) must keep their answers’ tags too (keptAnswerTagsMigration)',
    );
  return true;
}

/** What a create answered, kept for its key. */
export interface KeptAnswer {
  /** of the request that was answered: its method, path and body (kit idempotency.ts) */
  fingerprint: string;
  status: number;
  location: string | null;
  /** the answer's ETag; null when it had none */
  etag: string | null;
  body: string;
}

/** The answer of a claimed request, kept with its key. */
export type Answer = Omit<KeptAnswer, 'fingerprint'>;

/** A request under its key. */
export interface KeyClaim {
  accountId: string;
  key: string;
  fingerprint: string;
  /**
   * the live answers the account may have kept in the area, beyond which its request is refused
   * (`full`); 0 or none: no limit (docs/decisions/0442-kept-answers-per-account.md)
   */
  maxKept?: number;
}

/**
 * What came of a claimed request: its result, with its answer kept when it created anything; or
 * nothing done because another request holds the key (`in_progress`), has kept an answer under
 * it since it was looked up (`taken`), or the account keeps as many answers as it may (`full`,
 * for the milliseconds until the first of them expires).
 */
export type ClaimOutcome<T> = { done: T } | { refused: 'in_progress' | 'taken' } | { refused: 'full'; afterMs: number };

/**
 * A claim under way: the transaction its first create opened, left open until its answer is kept.
 * `ended` once the request's work has returned: what it set going and runs on in its async
 * context (the outbox relay it woke, a consumer the relay hands an event to) is no part of it.
 */
interface OpenClaim extends KeyClaim {
  keys: IdempotencyKeys;
  trx?: Knex.Transaction;
  ended?: boolean;
}

const claims = new AsyncLocalStorage<OpenClaim>();

/** Thrown out of a create whose key another request holds; the claim turns it into its outcome. */
class KeyRefused extends Error {
  constructor(readonly reason: 'in_progress' | 'taken') {
    super(`idempotency key ${reason}`);
  }
}

/**
 * The transaction of a create (a resource, its rows and its outbox event). Under a claimed
 * Idempotency-Key it is the claim's: opened here, its key locked first, and committed only once
 * the request's answer is kept in it (IdempotencyKeys.claim), so the resource, its event and its
 * kept answer are written together or not at all. Nothing of the request may read the database
 * outside it between the create and the answer: on PGlite its one connection is this transaction's.
 */
export async function createTransaction<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const claim = claims.getStore();
  if (!claim || claim.ended || !claim.keys.uses(knex)) return knex.transaction(work);
  if (!claim.trx) {
    const trx = await knex.transaction();
    try {
      if (!(await claim.keys.lock(trx, claim))) throw new KeyRefused('in_progress');
    } catch (err) {
      await trx.rollback().catch(() => undefined);
      throw err;
    }
    claim.trx = trx;
  }
  return work(claim.trx);
}

/**
 * The answers an area's creates gave under an Idempotency-Key (draft-ietf-httpapi-idempotency-key-header),
 * in the table of idempotencyKeysMigration in its schema (docs/decisions/0434-creates-answered-again-under-an-idempotency-key.md).
 */
export class IdempotencyKeys {
  /** keys of this process's requests under way: a second request with one is refused at once */
  private readonly underWay = new Set<string>();

  constructor(
    private readonly knex: Knex,
    /** the area's schema */
    private readonly schema: string,
    private readonly now: () => Date,
  ) {}

  /** Whether a store's creates on this database belong to this area's claims. */
  uses(knex: Knex): boolean {
    return knex === this.knex;
  }

  private rows(db: Knex | Knex.Transaction = this.knex) {
    return db.withSchema(this.schema).table(TABLE);
  }

  /** The answer kept for the account's key, null when none is (or it has expired). */
  async find(accountId: string, key: string): Promise<KeptAnswer | null> {
    const row = (await this.rows()
      .select('fingerprint', 'status', 'location', 'etag', 'body')
      .where({ account_id: accountId, key })
      .where('expires_at', '>', this.now())
      .first()) as KeptAnswer | undefined;
    return row
      ? { fingerprint: row.fingerprint, status: Number(row.status), location: row.location, etag: row.etag ?? null, body: row.body }
      : null;
  }

  /**
   * Runs the request under its key. Its first create opens the transaction that holds the key
   * (createTransaction) and `work` returns its result and answer; the answer is then kept in that
   * transaction, which commits. A request that created nothing keeps nothing, and one that throws
   * rolls everything back. Refused, with nothing done, while another request of this process holds
   * the key, or another replica's holds its lock, or (the primary key deciding) once another
   * request has kept an answer under it.
   */
  async claim<T>(claim: KeyClaim, work: () => Promise<{ result: T; answer: Answer }>): Promise<ClaimOutcome<T>> {
    const local = `${claim.accountId} ${claim.key}`;
    if (this.underWay.has(local)) return { refused: 'in_progress' };
    const full = await this.fullUntil(claim.accountId, claim.maxKept ?? 0);
    if (full) return { refused: 'full', afterMs: Math.max(0, full.getTime() - this.now().getTime()) };
    this.underWay.add(local);
    const open: OpenClaim = { ...claim, keys: this };
    try {
      const { result, answer } = await claims.run(open, work).finally(() => (open.ended = true));
      const trx = open.trx;
      if (trx) {
        const kept = await this.keep(trx, open, answer);
        if (kept) await trx.commit();
        else {
          await trx.rollback();
          return { refused: 'taken' };
        }
      }
      return { done: result };
    } catch (err) {
      await open.trx?.rollback().catch(() => undefined);
      if (err instanceof KeyRefused) return { refused: err.reason };
      throw err;
    } finally {
      this.underWay.delete(local);
    }
  }

  /**
   * When the first of the account's live answers expires, if it keeps `max` or more; null when it
   * keeps fewer, or `max` is 0 (no limit). Its resources are capped, but a create and a delete of
   * each leave one answer apiece, so without this an account's kept answers would grow with its
   * request rate for 24 hours (docs/decisions/0442-kept-answers-per-account.md). Requests under way
   * together may each pass it: the excess is bounded by what is in flight.
   */
  private async fullUntil(accountId: string, max: number): Promise<Date | null> {
    if (!(max > 0 && Number.isFinite(max))) return null;
    const live = this.rows()
      .select('expires_at')
      .where({ account_id: accountId })
      .where('expires_at', '>', this.now())
      .limit(max)
      .as('live');
    const row = (await this.knex.from(live).count({ n: '*' }).min({ first: 'expires_at' }).first()) as
      { n: string | number; first: Date | string | null } | undefined;
    return row && Number(row.n) >= max && row.first !== null ? new Date(row.first) : null;
  }

  /**
   * Locks the key for the transaction, false when another transaction holds it (a request under
   * way on another replica). PostgreSQL's advisory lock, released at commit or rollback.
   */
  async lock(trx: Knex.Transaction, claim: KeyClaim): Promise<boolean> {
    const { rows } = (await trx.raw('select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked', [
      `${this.schema} idempotency ${claim.accountId} ${claim.key}`,
    ])) as { rows: { locked: boolean }[] };
    return rows[0]?.locked === true;
  }

  /** Keeps the answer in the claim's transaction; false when a live answer is already kept under the key. */
  private async keep(trx: Knex.Transaction, claim: KeyClaim, answer: Answer): Promise<boolean> {
    const now = this.now();
    const row = {
      account_id: claim.accountId,
      key: claim.key,
      fingerprint: claim.fingerprint,
      status: answer.status,
      location: answer.location,
      etag: answer.etag,
      body: answer.body,
      created_at: now,
      expires_at: new Date(now.getTime() + IDEMPOTENCY_KEY_RETENTION_MS),
    };
    // An expired row not yet pruned gives way; a live one stays, and this request rolls back.
    const written = await this.rows(trx)
      .insert(row)
      .onConflict(['account_id', 'key'])
      .merge()
      .where(`${TABLE}.expires_at`, '<=', now)
      .returning('key');
    return written.length > 0;
  }

  /** Deletes the answers whose keys expired by `now`; one statement, so any replica may run it. */
  async prune(now: Date): Promise<number> {
    return this.rows().where('expires_at', '<=', now).delete();
  }
}
