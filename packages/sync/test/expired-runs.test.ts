/**
 * A synced run's expirationTime is its start plus FIELDCAST_SYNC_KEEP_DAYS
 * (docs/decisions/0255-synced-runs-as-models.md), the latest retention lets it be served
 * (docs/decisions/0250-synced-runs-staged-then-published.md). Every pass holds to it, not only one
 * that publishes a run: with upstream down past that time, the pass still fails, but the run
 * leaves the registry (EXPIRED from then on) and its store is removed once readers let it go.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceRegistry, syncedStorePaths } from '@fieldcast/weather';
import { readSyncedModels, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RUN = Date.UTC(2026, 11, 3, 0);
const t = useArchive('expired', (root) => {
  for (const s of [0, 1]) writeGfsStep(root, RUN, s);
});

const poll = (nowMs: number, runMs?: number) =>
  syncRun(pollOptions(t, { ...(runMs === undefined ? {} : { runMs }), steps: '0-1', keepDays: 1, now: () => nowMs }));

test('a run past its expirationTime stops being served on the next pass, though nothing is published', async () => {
  const sourceDir = join(t.data, 'sync', 'gfs-0p25');
  expect(await poll(RUN + 4 * HOUR, RUN)).toMatchObject({ state: 'published' });
  const store = join(sourceDir, 'runs', '2026120300.zarr');
  expect(await syncedStorePaths(join(t.data, 'sync'), RUN + 4 * HOUR)).toContain(store);

  // Upstream is down (every request 503s) when the run's day has passed.
  t.server.inject('', { status: 503 }, 1000);
  await expect(poll(RUN + DAY + HOUR)).rejects.toThrow(/503/);
  const registry = await readSourceRegistry(sourceDir, 'gfs-0p25');
  expect(registry.runs).toEqual([]);
  expect(registry.expired).toEqual([
    { run: new Date(RUN).toISOString(), steps: [0, 1], createdAt: expect.any(String), at: new Date(RUN + DAY).toISOString() },
  ]);
  expect(await syncedStorePaths(join(t.data, 'sync'), RUN + DAY + HOUR)).not.toContain(store);
  const [model] = await readSyncedModels(join(t.data, 'sync'), RUN + DAY + HOUR);
  expect(model!.runs.map((r) => [r.initMs, r.status, r.expirationMs])).toEqual([[RUN, 'EXPIRED', RUN + DAY]]);
  expect(existsSync(store)).toBe(true);

  // Removed from disk by a pass once serving processes have reloaded (10 minutes).
  await expect(poll(RUN + DAY + HOUR + 11 * 60_000)).rejects.toThrow(/503/);
  expect(existsSync(store)).toBe(false);
  expect((await readSourceRegistry(sourceDir, 'gfs-0p25')).retired.map((r) => r.path)).not.toContain('runs/2026120300.zarr');
});
