import type { Database } from '@fieldcast/db';

/**
 * Everything the services have stored: each table of their schemas as a row count and a digest
 * of its rows. Two equal snapshots mean nothing was written, changed or deleted in between.
 */
export async function storedState(db: Database, schemas: readonly string[]): Promise<Record<string, string>> {
  const tables: { schemaname: string; tablename: string }[] = (
    await db.knex.raw(`select schemaname, tablename from pg_tables where schemaname = any(?) order by 1, 2`, [[...schemas]])
  ).rows;
  if (tables.length === 0) return {};
  const parts = tables.map(
    (t) =>
      `select '${t.schemaname}.${t.tablename}' as name, count(*)::int as n, coalesce(md5(string_agg(r::text, '|' order by r::text)), '') as digest from "${t.schemaname}"."${t.tablename}" r`,
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
 * Waits for the work a successful write leaves behind (its outbox row relayed, its event
 * consumed) to finish, so a later snapshot changes only because of a later request.
 */
export async function settledState(db: Database, schemas: readonly string[], timeoutMs = 5000): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let previous = JSON.stringify(await storedState(db, schemas));
  for (;;) {
    await new Promise((r) => setTimeout(r, 15));
    const current = await storedState(db, schemas);
    const text = JSON.stringify(current);
    if (text === previous && (await unsentOutboxRows(db, schemas)) === 0) return current;
    if (Date.now() > deadline) throw new Error('the fleet did not settle: its stored state keeps changing with no request in flight');
    previous = text;
  }
}
