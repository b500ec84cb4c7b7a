// Unit and service tests. Sources are ESM TypeScript; @swc/jest transpiles them (through
// scripts/jest-transform.mjs, which binds the built-in globals in module scope: read through a vm
// context's global they are an order of magnitude slower) and Jest runs them as native ES modules
// (NODE_OPTIONS=--experimental-vm-modules, set by the test scripts) because some dependencies
// (zarrita) ship ESM only.
const swc = [
  '<rootDir>/scripts/jest-transform.mjs',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
  },
];

import { availableParallelism } from 'node:os';

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/services/*/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '\\.int\\.test\\.ts$'],
  testTimeout: 30000,
  // Jest's default leaves a core to itself (cores - 1), which on a two-core machine runs every
  // file in band; a test file spends much of its time waiting (a fleet's start, its compute
  // threads, its database), so two workers keep both cores busy.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A worker keeps what each test file leaves in its heap (about 8 MB a file here): past this, it
  // is replaced after the file, rather than collecting an ever larger heap; the fuzz files ran three
  // times slower at the end of a run in a worker grown to 4 GB than in a fresh one.
  workerIdleMemoryLimit: '512MB',
  testSequencer: '<rootDir>/scripts/test-sequencer.mjs',
  globalSetup: '<rootDir>/scripts/test-global-setup.mjs',
  setupFilesAfterEnv: ['<rootDir>/scripts/test-cpu-setup.mjs'],
  reporters: ['default', ['<rootDir>/scripts/test-times-reporter.mjs', { name: 'test-times' }]],
};
