import type { Database } from '@fieldcast/db';

/**
 * Everything the services have stored: each table of their schemas as a row count and a digest
 * of its rows. Two equal snapshots mean nothing was written, changed or deleted in between.
 */
async function storedState(db: Database, schemas: readonly string[]): Promise<Record<string, string>> {
  const tables: { schemaname: string; tablename: string }[] = (
    await db.knex.raw(`select schemaname, tablename from pg_tables where schemaname = any(?) order by 1, 2`, [[...schemas]])
  ).rows;
  if (tables.length === 0) return {};
  const parts = tables.map(
    (t) =>
      // a sum of the rows' 64-bit hashes: blind to order, so no sort and no string of the whole table
      `select '${t.schemaname}.${t.tablename}' as name, count(*)::int as n, coalesce(sum(hashtextextended(r::text, 0)), 0)::text as digest from "${t.schemaname}"."${t.tablename}" r`,
  );
  const rows: { name: string; n: number; digest: string }[] = (await db.knex.raw(parts.join(' union all '))).rows;
  return Object.fromEntries(rows.map((r) => [r.name, `${r.n} ${r.digest}`]));
}

async function unsentOutboxRows(db: Database, schemas: readonly string[]): Promise<number> {
  const outboxes: { schemaname: string }[] = (
    await db.knex.raw(`select schemaname from pg_tables where schemaname = any(?) and tablename = 'outbox'`, [[...schemas]])
  ).rows;
  if (outboxes.length === 0) return 0;
  const sql = outboxes.map((o) => `select count(*)::int as n from "${o.schemaname}".outbox where sent_at is null`).join(' union all ');
  const rows: { n: number }[] = (await db.knex.raw(sql)).rows;
  return rows.reduce((sum, r) => sum + r.n, 0);
}

/**
 * Rows whose lease is held: work a service has claimed and not yet recorded (a webhook's send or
 * validation handshake, events 004_webhooks: `lease_until` is set when claimed and cleared with
 * the outcome). The log stands still while such work waits on the network (a DNS lookup of a
 * generated host can take seconds), so a quiet log alone does not say the work is done.
 */
async function heldLeases(db: Database, schemas: readonly string[]): Promise<number> {
  const leased: { table_schema: string; table_name: string }[] = (
    await db.knex.raw(
      `select table_schema, table_name from information_schema.columns where table_schema = any(?) and column_name = 'lease_until'`,
      [[...schemas]],
    )
  ).rows;
  if (leased.length === 0) return 0;
  const sql = leased
    .map((t) => `select count(*)::int as n from "${t.table_schema}"."${t.table_name}" where lease_until is not null`)
    .join(' union all ');
  const rows: { n: number }[] = (await db.knex.raw(sql)).rows;
  return rows.reduce((sum, r) => sum + r.n, 0);
}

/**
 * Where PostgreSQL's write-ahead log ends: every change to a table (insert, update, delete,
 * truncate, DDL) writes to the log first ("WAL Internals", PostgreSQL manual 28.6), so an
 * unchanged position means nothing was written. A moved one means something may have been (a
 * read can prune a page, too): then the tables' digests say what.
 */
export async function walPosition(db: Database): Promise<string> {
  return (await db.knex.raw(`select pg_current_wal_insert_lsn()::text as lsn`)).rows[0].lsn as string;
}

/** A settled fleet's stored state and the log position it was read at. */
export interface Snapshot {
  tables: Record<string, string>;
  wal: string;
}

/**
 * Waits for the work a successful write leaves behind (its outbox row relayed, its event
 * consumed) to finish, so a later snapshot changes only because of a later request: the log's
 * position stands still across a pause, no outbox row is unsent and no claimed work is in flight.
 */
export async function settledState(db: Database, schemas: readonly string[], timeoutMs = 5000): Promise<Snapshot> {
  const deadline = Date.now() + timeoutMs;
  let previous = await walPosition(db);
  for (;;) {
    await new Promise((r) => setTimeout(r, 15));
    const current = await walPosition(db);
    if (current === previous && (await unsentOutboxRows(db, schemas)) === 0 && (await heldLeases(db, schemas)) === 0) {
      const tables = await storedState(db, schemas);
      // the digest's own reads may prune a page: the position after them is the one to compare
      if ((await walPosition(db)) === current) return { tables, wal: current };
    }
    if (Date.now() > deadline) throw new Error('the fleet did not settle: its stored state keeps changing with no request in flight');
    previous = await walPosition(db);
  }
}

/** Tables whose rows differ from the snapshot's: none when the log has not moved since it. */
export async function changedSince(db: Database, schemas: readonly string[], snapshot: Snapshot): Promise<string[]> {
  if ((await walPosition(db)) === snapshot.wal) return [];
  const after = await storedState(db, schemas);
  return Object.keys({ ...snapshot.tables, ...after }).filter((t) => snapshot.tables[t] !== after[t]);
}
