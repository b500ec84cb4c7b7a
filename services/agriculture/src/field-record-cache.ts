import type { Knex } from 'knex';
import { LruCache } from '@fieldcast/caches';
import type { RecordCache } from '@fieldcast/db';
import type { FieldRecord } from './domain/fields.js';

/**
 * Field records by id, for a database only this process can write: the embedded PGlite, which
 * runs inside the process and whose data dir a pid file locks to one process
 * (docs/decisions/0008-embedded-runtime.md). Every write to the fields table goes through
 * FieldStore in this process, which drops the entry, so a cached record is never stale. With PostgreSQL (several replicas)
 * there is no cache: another replica's PUT would not reach it (docs/decisions/0036-caches.md).
 *
 * A read that raced a write must not put the pre-write row back: `generation` counts writes, and
 * a record read from the database is cached only if no write began or ended while it was read.
 *
 * Keys are ids in canonical lower case (RFC 9562 section 4): PostgreSQL's uuid type matches an
 * id in any case, so a write under one spelling must drop the entry read under another.
 */
export class FieldRecordCache implements RecordCache<FieldRecord> {
  private readonly records: LruCache<FieldRecord>;
  private generation = 0;

  constructor(capacity = 10_000) {
    this.records = new LruCache(capacity);
  }

  /** The cached record, or undefined; the caller checks ownership. */
  get(id: string): FieldRecord | undefined {
    return this.records.get(canonical(id));
  }

  /** A token to pass to `fill` after reading the database. */
  readStarted(): number {
    return this.generation;
  }

  /** Caches a record read from the database, unless a write happened since `token`. */
  fill(token: number, record: FieldRecord): void {
    if (token !== this.generation) return;
    this.records.set(canonical(record.id), record);
  }

  /** Called before and after every write of the field: drops it and invalidates reads in flight. */
  invalidate(id: string): void {
    this.generation++;
    this.records.delete(canonical(id));
  }
}

const canonical = (id: string) => id.toLowerCase();

/** One cache per embedded database, shared by every FieldStore on it. */
const caches = new WeakMap<Knex, FieldRecordCache>();

export function fieldRecordCacheFor(knex: Knex): FieldRecordCache {
  let cache = caches.get(knex);
  if (!cache) {
    cache = new FieldRecordCache();
    caches.set(knex, cache);
  }
  return cache;
}
