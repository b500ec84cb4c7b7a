import { statSync } from 'node:fs';
import { openTestDatabase } from '../src/testing.js';

/**
 * A test fleet's embedded database (docs/decisions/0071-test-fixtures-once-per-run.md): started
 * from the suite's migrated template, with a small buffer pool, which PGlite clears at start; the
 * template holds only the database PGlite serves and a write-ahead log of 1 MB segments, so each
 * copy unpacks about 15 MB where initdb's defaults made 42.
 */
it('starts from the migrated template with a 16 MB buffer pool', async () => {
  expect(process.env.FIELDCAST_TEST_DATABASE).toMatch(/database-template-[0-9a-f]{16}\.tar$/);
  const db = await openTestDatabase();
  try {
    const [pool] = (await db.knex.raw('show shared_buffers')).rows as { shared_buffers: string }[];
    expect(pool!.shared_buffers).toBe('16MB');
    const migrated = await db.knex.raw(`select count(*)::int as n from pg_tables where schemaname = 'identity'`);
    expect(migrated.rows[0].n).toBeGreaterThan(0);
    expect((await db.knex.raw('select datname from pg_database')).rows).toEqual([{ datname: 'postgres' }]);
    expect((await db.knex.raw('show wal_segment_size')).rows).toEqual([{ wal_segment_size: '1MB' }]);
    expect(statSync(process.env.FIELDCAST_TEST_DATABASE!).size).toBeLessThan(24 * 2 ** 20);
  } finally {
    await db.close();
  }
});
