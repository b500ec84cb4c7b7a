import type { SyncedRun } from '@fieldcast/sync';
import { statusesReached } from '../src/synced-registry.js';

/** The life cycle a synced run's files show (docs/decisions/0255-synced-runs-as-models.md). */
const run = (status: SyncedRun['status'], steps: number[], abandoned?: boolean): SyncedRun => ({
  initMs: 0,
  status,
  createdMs: 0,
  expirationMs: 0,
  steps,
  store: null,
  ...(abandoned ? { abandoned } : {}),
});

test('a run given up for a newer one expires without ever having been COMPLETE', () => {
  expect(statusesReached(run('INCOMPLETE', [0, 1]))).toEqual(['INITIALIZING', 'INCOMPLETE']);
  expect(statusesReached(run('COMPLETE', [0]))).toEqual(['INITIALIZING', 'COMPLETE']);
  expect(statusesReached(run('EXPIRED', [0, 1, 2]))).toEqual(['INITIALIZING', 'INCOMPLETE', 'COMPLETE', 'EXPIRED']);
  expect(statusesReached(run('EXPIRED', [0, 1], true))).toEqual(['INITIALIZING', 'INCOMPLETE', 'EXPIRED']);
});
