/**
 * A run still being staged when a newer one is published is given up
 * (docs/decisions/0255-synced-runs-as-models.md): its other steps would never come, since a poller
 * syncs the newest run. It is remembered as expired and unpublished, and its staged steps are
 * removed (a real step is tens of MB).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceRegistry } from '@fieldcast/weather';
import { readSyncedModels, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN_A = Date.UTC(2026, 11, 3, 0);
const RUN_B = RUN_A + 6 * HOUR;
// A's last steps never appear; B is published whole
const t = useArchive('abandoned', (root) => {
  for (const s of [0, 1]) writeGfsStep(root, RUN_A, s);
  for (const s of [0, 1, 2, 3]) writeGfsStep(root, RUN_B, s);
});

const sync = (runMs: number) => syncRun(pollOptions(t, { runMs, steps: '0-3', now: () => runMs + 4 * HOUR }));

test('an older run being staged is given up when a newer one is published: expired, never complete, its steps removed', async () => {
  expect(await sync(RUN_A)).toMatchObject({ state: 'pending', staged: 2, of: 4 });
  const stagingA = join(t.data, 'sync', 'gfs-0p25', 'staging', '2026120300');
  expect(existsSync(stagingA)).toBe(true);
  expect((await readSyncedModels(join(t.data, 'sync')))[0]!.runs.map((r) => [r.initMs, r.status])).toEqual([[RUN_A, 'INCOMPLETE']]);

  expect(await sync(RUN_B)).toMatchObject({ state: 'published' });
  expect(existsSync(stagingA)).toBe(false);
  const registry = await readSourceRegistry(join(t.data, 'sync', 'gfs-0p25'), 'gfs-0p25');
  expect(registry.expired).toEqual([
    {
      run: new Date(RUN_A).toISOString(),
      steps: [0, 1],
      createdAt: expect.any(String),
      at: new Date(RUN_B + 4 * HOUR).toISOString(),
      abandoned: true,
    },
  ]);
  const [model] = await readSyncedModels(join(t.data, 'sync'));
  expect(model!.runs.map((r) => [r.initMs, r.status, r.abandoned ?? false])).toEqual([
    [RUN_B, 'COMPLETE', false],
    [RUN_A, 'EXPIRED', true],
  ]);
});
