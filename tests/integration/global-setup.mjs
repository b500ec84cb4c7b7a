// Checks that the integration suite has its real dependencies, then gives it clean databases: the
// machine's DATABASE_URL with every area's schema dropped, and one empty database per Jest worker
// (use-worker-database.mjs). Then computes the fixtures the tests share (scripts/test-global-setup.mjs).
import pg from 'pg';
import { Kafka, logLevel } from 'kafkajs';
import { prepareTestFixtures } from '../../scripts/test-global-setup.mjs';
import { workerDatabaseUrl } from './worker-databases.mjs';

/**
 * The schemas Fieldcast migrated: identity's and each area's (packages/db migrateSchema), each
 * with its knex_migrations table. Read from the database, so an area added to the registry, or
 * removed from it, needs no list here.
 */
async function migratedSchemas(client) {
  const { rows } = await client.query(
    `select table_schema from information_schema.tables where table_name = 'knex_migrations' and table_schema <> 'public'`,
  );
  return rows.map((row) => row.table_schema);
}

export default async function globalSetup(globalConfig) {
  const { DATABASE_URL, KAFKA_BROKERS } = process.env;
  if (!DATABASE_URL || !KAFKA_BROKERS) {
    throw new Error('The integration suite needs DATABASE_URL and KAFKA_BROKERS (see README "Tests").');
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`DATABASE_URL is set but PostgreSQL is unreachable: ${err.message}`);
  }
  // A test database: start every run from empty schemas so a changed migration never meets stale tables.
  for (const schema of await migratedSchemas(client)) await client.query(`drop schema if exists "${schema}" cascade`);
  for (let worker = 1; worker <= globalConfig.maxWorkers; worker++) {
    const name = new URL(workerDatabaseUrl(DATABASE_URL, worker)).pathname.slice(1);
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  }
  await client.end();
  const admin = new Kafka({
    clientId: 'fieldcast-it',
    brokers: KAFKA_BROKERS.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5000,
    retry: { retries: 2 },
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (err) {
    throw new Error(`KAFKA_BROKERS is set but Kafka is unreachable: ${err.message}`);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  // The climate lattice; the service tests run on PostgreSQL here, so no PGlite template.
  prepareTestFixtures({ databaseTemplate: false });
}
