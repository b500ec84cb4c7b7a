import { openDatabase, migrateSchema, type Database, type Migration } from '@fieldcast/db';
import { requireEnv } from './helpers.js';

/**
 * Replicas of one area starting at once migrate its schema in turn, and a migrator killed
 * half-way does not stop the next (packages/db migrations.ts). Two pools are two replicas.
 */
const schema = `migrations_it_${process.pid}`;
let runs = 0;
const slow: Migration = {
  name: '001_slow',
  async up(knex, s) {
    runs += 1;
    await knex.raw('select pg_sleep(0.5)');
    await knex.schema.withSchema(s).createTable('things', (t) => t.increments('id'));
  },
};
let replicas: Database[] = [];

beforeAll(async () => {
  replicas = [await openDatabase({ url: requireEnv().url }), await openDatabase({ url: requireEnv().url })];
});
afterAll(async () => {
  await replicas[0]?.knex.raw('drop schema if exists ?? cascade', [schema]);
  for (const db of replicas) await db.close();
});

it('two replicas migrating one schema at once both start, and the migration runs once', async () => {
  await Promise.all(replicas.map((db) => migrateSchema(db.knex, schema, [slow])));
  expect(runs).toBe(1);
  expect(await replicas[1]!.knex.withSchema(schema).table('things').count('* as n')).toEqual([{ n: 0 }]);
});

it('a lock left by a migrator that died is freed by the next', async () => {
  await replicas[0]!.knex.withSchema(schema).table('knex_migrations_lock').update({ is_locked: 1 });
  const second: Migration = { name: '002_more', up: (knex, s) => knex.schema.withSchema(s).createTable('more', (t) => t.increments('id')) };
  await migrateSchema(replicas[1]!.knex, schema, [slow, second]);
  expect(await replicas[0]!.knex.schema.withSchema(schema).hasTable('more')).toBe(true);
});
