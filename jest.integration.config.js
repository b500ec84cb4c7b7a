// The integration suite (docs/architecture.md §8): the same service tests, now against the real
// PostgreSQL and Kafka named by DATABASE_URL and KAFKA_BROKERS, plus the cross-process tests in
// tests/integration. Run by `.ci/run` after the unit suite; it fails, never skips, without them.
import base from './jest.config.js';

/** @type {import('jest').Config} */
export default {
  ...base,
  testMatch: ['<rootDir>/services/*/test/**/*.test.ts', '<rootDir>/tests/integration/**/*.int.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/tests/integration/global-setup.mjs',
  testTimeout: 120000,
  // After the whole suite (not any one file alone) one idle socket to the broker outlives every
  // disconnect, and Jest would wait for the broker to drop it (connections.max.idle.ms, 10 min).
  // Traced by recording the stack of every socket connect: a kafkajs 2.2 consumer's heartbeat at
  // the end of a batch (consumer/runner.js onBatch -> Broker.heartbeat) reopens the coordinator
  // connection after the consumer was disconnected; stopping the runner first does not prevent
  // it. Our own clients are all disconnected on close (packages/bus/src/kafka.ts).
  forceExit: true,
};
