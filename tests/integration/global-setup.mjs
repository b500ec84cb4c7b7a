// Checks that the integration suite has its real dependencies, then gives it a clean database.
import pg from 'pg';
import { Kafka, logLevel } from 'kafkajs';

const SCHEMAS = ['identity', 'agriculture', 'tiles', 'insight', 'platform', 'model', 'observations', 'transfer', 'events', 'archive'];

export default async function globalSetup() {
  const { DATABASE_URL, KAFKA_BROKERS } = process.env;
  if (!DATABASE_URL || !KAFKA_BROKERS) {
    throw new Error('The integration suite needs DATABASE_URL and KAFKA_BROKERS (see README "Integration tests").');
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`DATABASE_URL is set but PostgreSQL is unreachable: ${err.message}`);
  }
  // A test database: start every run from empty schemas so a changed migration never meets stale tables.
  for (const schema of SCHEMAS) await client.query(`drop schema if exists "${schema}" cascade`);
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
}
