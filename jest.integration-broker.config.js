// The integration tests that need the broker and the machine's database to themselves
// (BROKER_TESTS in jest.integration.config.js), run in band after the parallel part.
import integration, { BROKER_TESTS } from './jest.integration.config.js';

/** @type {import('jest').Config} */
export default {
  ...integration,
  testMatch: BROKER_TESTS,
  testPathIgnorePatterns: ['/node_modules/'],
  setupFiles: [],
  reporters: ['default', ['<rootDir>/scripts/test-times-reporter.mjs', { name: 'test-times-integration-broker' }]],
};
