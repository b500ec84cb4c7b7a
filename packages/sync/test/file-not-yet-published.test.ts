/**
 * Upstream publishes a step's inventory and its GRIB file separately, so a poller may find the
 * `.idx` there and the file not yet (HTTP 404). That is the ordinary "not yet" of a run being
 * produced, as an inventory not there yet is: the pass is pending with the steps it has, not
 * failed (docs/decisions/0250-synced-runs-staged-then-published.md, 0252 outcomes).
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { gfsPath, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const t = useArchive('file-not-yet', (root) => {
  for (const s of [0, 1, 2, 3]) writeGfsStep(root, RUN, s);
  renameSync(join(root, gfsPath(RUN, 2)), join(root, `${gfsPath(RUN, 2)}.later`));
});

const poll = () => syncRun(pollOptions(t, { runMs: RUN, steps: '0-3', now: () => RUN + 4 * HOUR }));

test('a step whose inventory is published and whose file is not yet leaves the pass pending, and the next pass takes it', async () => {
  expect(await poll()).toEqual({ state: 'pending', runMs: RUN, staged: 2, of: 4 });
  renameSync(join(t.archive, `${gfsPath(RUN, 2)}.later`), join(t.archive, gfsPath(RUN, 2)));
  expect(await poll()).toMatchObject({ state: 'published', steps: 4 });
});
