import { openDatabase, type Database } from '@fieldcast/db';
import { requireEnv } from './helpers.js';

/**
 * Database.prepared on PostgreSQL: named statements as pg query configs on the pipelined
 * connections of statement-pipeline.ts. PGlite runs the same calls unnamed, covered by the
 * service tests.
 */
let db: Database;
beforeAll(async () => {
  db = await openDatabase({ url: requireEnv().url });
});
afterAll(async () => {
  await db.close();
});

describe('Database.prepared on PostgreSQL', () => {
  it('returns rows with pg type parsing: numbers, booleans, timestamps, json, nulls', async () => {
    const rows = await db.prepared<{ n: number; big: number; ok: boolean; at: Date; doc: unknown; nothing: null; text: string }>({
      name: 'it_types',
      text: `select $1::int + 1 as n, 9007199254740991::bigint as big, $2::boolean as ok, $3::timestamptz as at,
             '{"a":[1,"x"]}'::jsonb as doc, null::text as nothing, $4::text as text`,
      values: [41, true, new Date('2026-01-02T03:04:05.678Z'), 'é "quoted" \u2028'],
    });
    expect(rows).toEqual([
      {
        n: 42,
        big: 9007199254740991,
        ok: true,
        at: new Date('2026-01-02T03:04:05.678Z'),
        doc: { a: [1, 'x'] },
        nothing: null,
        text: 'é "quoted" \u2028',
      },
    ]);
  });

  it('binds null and undefined as SQL null, and returns every row in order', async () => {
    const rows = await db.prepared<{ i: number; a: string | null }>({
      name: 'it_rows',
      text: 'select i, $1::text as a from generate_series(1, 3) i order by i',
      values: [null],
    });
    expect(rows).toEqual([
      { i: 1, a: null },
      { i: 2, a: null },
      { i: 3, a: null },
    ]);
  });

  it('runs the same name many times concurrently across its connections', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        db.prepared<{ v: number }>({ name: 'it_concurrent', text: 'select $1::int * 2 as v', values: [i] }),
      ),
    );
    expect(results.map((r) => r[0]!.v)).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
  });

  it('rejects a server error with its SQLSTATE and keeps serving afterwards', async () => {
    await expect(db.prepared({ name: 'it_divide', text: 'select 1 / $1::int as v', values: [0] })).rejects.toMatchObject({ code: '22012' });
    const again = await Promise.all(
      Array.from({ length: 20 }, () => db.prepared<{ v: number }>({ name: 'it_divide', text: 'select 1 / $1::int as v', values: [1] })),
    );
    expect(again.every((r) => r[0]!.v === 1)).toBe(true);
  });

  it('refuses one name for two texts instead of running the wrong statement', async () => {
    await db.prepared({ name: 'it_same_name', text: 'select 1 as v', values: [] });
    // Every pooled connection may or may not have parsed the first text; on one that has, the
    // second text must fail rather than run the first.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => db.prepared<{ v: number }>({ name: 'it_same_name', text: 'select 2 as v', values: [] })),
    );
    for (const o of outcomes) {
      if (o.status === 'fulfilled') expect(o.value).toEqual([{ v: 2 }]);
      else expect(String(o.reason)).toMatch(/it_same_name|already exists/);
    }
  });

  it('replaces a connection the server terminated', async () => {
    const [row] = await db.prepared<{ pid: number }>({ name: 'it_pid', text: 'select pg_backend_pid() as pid', values: [] });
    const pid = row!.pid;
    await db.knex.raw('select pg_terminate_backend(?)', [pid]);
    // The pool may hand out the dying connection before its end reaches us; that call fails
    // (and does not crash the process), the connection is dropped, and the next calls succeed.
    const first = await db.prepared<{ v: number }>({ name: 'it_after_kill', text: 'select 1 as v', values: [] }).catch((e: unknown) => e);
    if (!Array.isArray(first)) expect(String(first)).toMatch(/terminat|ECONNRESET|EPIPE/);
    for (let i = 0; i < 5; i++) expect(await db.prepared({ name: 'it_after_kill', text: 'select 1 as v', values: [] })).toEqual([{ v: 1 }]);
    const pids = await Promise.all(
      Array.from({ length: 10 }, () =>
        db.prepared<{ pid: number }>({ name: 'it_pid', text: 'select pg_backend_pid() as pid', values: [] }),
      ),
    );
    expect(pids.map((r) => r[0]!.pid)).not.toContain(pid);
  });

  it('keeps answering in order when statements fail in the middle of a pipeline', async () => {
    // Each statement carries its own Sync, so an error ends only that statement (PostgreSQL
    // protocol 55.2.3): the ones written behind it on the same connection still run.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        db.prepared<{ v: number }>({ name: 'it_mixed', text: 'select 100 / $1::int as v', values: [i % 3 === 0 ? 0 : i] }),
      ),
    );
    outcomes.forEach((o, i) => {
      if (i % 3 === 0) expect(o).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
      else expect(o).toEqual({ status: 'fulfilled', value: [{ v: Math.trunc(100 / i) }] });
    });
  });
});
