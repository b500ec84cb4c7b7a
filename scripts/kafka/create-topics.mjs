// Pre-creates the topics listed in a file (one per line, # comments) on KAFKA_BROKERS.
import { readFileSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';

const topics = readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const admin = new Kafka({
  clientId: 'fieldcast-topics',
  brokers: process.env.KAFKA_BROKERS.split(','),
  logLevel: logLevel.NOTHING,
}).admin();
await admin.connect();
const existing = new Set(await admin.listTopics());
const missing = topics.filter((t) => !existing.has(t));
if (missing.length)
  await admin.createTopics({ waitForLeaders: true, topics: missing.map((topic) => ({ topic, numPartitions: 3, replicationFactor: 1 })) });
console.log(`kafka: topics ready (${topics.join(', ')})`);
await admin.disconnect();
