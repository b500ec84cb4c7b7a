// The integration suite (docs/architecture.md §8): the same service tests, now against the real
// PostgreSQL and Kafka named by DATABASE_URL and KAFKA_BROKERS, plus the cross-process tests in
// tests/integration. Run by `.ci/run` after the unit suite; it fails, never skips, without them.
//
// Service tests that touch no storage (STORAGE_FREE_TESTS) ran in the unit suite and are not run
// again. It runs in two parts (`pnpm test:integration`). This one runs its files in parallel: each Jest
// worker gets a database of its own (tests/integration/use-worker-database.mjs) and each test fleet a
// topic namespace of its own (openTestTransport). The tests in BROKER_TESTS start deployments on
// the broker's default topics, spawn processes that read the machine's DATABASE_URL, or stop the
// broker itself: they run alone, in band, in jest.integration-broker.config.js.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import base from './jest.config.js';

const root = dirname(fileURLToPath(import.meta.url));

export const BROKER_TESTS = [
  '<rootDir>/tests/integration/built-cli.int.test.ts',
  '<rootDir>/tests/integration/chaos.int.test.ts',
  '<rootDir>/tests/integration/events-kafka.int.test.ts',
  '<rootDir>/tests/integration/fields-to-events.int.test.ts',
  '<rootDir>/tests/integration/serve.int.test.ts',
  '<rootDir>/tests/integration/webhooks-kafka.int.test.ts',
];

/**
 * Service tests that open no test fleet, database or transport (the science, rendering, caches,
 * parsers): the unit suite ran them, and PostgreSQL and Kafka would change nothing they do.
 */
export const STORAGE_FREE_TESTS = readdirSync(join(root, 'services')).flatMap((area) =>
  readdirSync(join(root, 'services', area, 'test'))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `/services/${area}/test/${file}`)
    .filter((file) => !/useTestFleet|startTestFleet|openTestDatabase|openTestTransport/.test(readFileSync(join(root, file), 'utf8'))),
);

/** @type {import('jest').Config} */
export default {
  ...base,
  testMatch: ['<rootDir>/services/*/test/**/*.test.ts', '<rootDir>/tests/integration/**/*.int.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...STORAGE_FREE_TESTS, ...BROKER_TESTS.map((t) => t.replace('<rootDir>/', '/'))],
  globalSetup: '<rootDir>/tests/integration/global-setup.mjs',
  setupFiles: ['<rootDir>/tests/integration/use-worker-database.mjs'],
  testTimeout: 120000,
  reporters: ['default', ['<rootDir>/scripts/test-times-reporter.mjs', { name: 'test-times-integration' }]],
  // After the whole suite (not any one file alone) one idle socket to the broker outlives every
  // disconnect, and Jest would wait for the broker to drop it (connections.max.idle.ms, 10 min).
  // Traced by recording the stack of every socket connect: a kafkajs 2.2 consumer's heartbeat at
  // the end of a batch (consumer/runner.js onBatch -> Broker.heartbeat) reopens the coordinator
  // connection after the consumer was disconnected; stopping the runner first does not prevent
  // it. Our own clients are all disconnected on close (packages/bus/src/kafka.ts).
  forceExit: true,
};
