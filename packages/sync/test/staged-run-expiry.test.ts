/**
 * A run staged but never published expires at its expirationTime (its start plus
 * FIELDCAST_SYNC_KEEP_DAYS) like a published one, on the one rule every reader reads
 * (docs/decisions/0372-staged-runs-expire-and-polls-pick-unexpired-runs.md): the model area lists
 * it EXPIRED from that instant, never COMPLETE, whether or not a pass has run since; the next pass
 * remembers it expired at that same instant, removes its staged steps and fetches nothing of it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceRegistry } from '@fieldcast/weather';
import { readSyncedModels, SyncConfigError, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { gfsPath, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RUN_A = Date.UTC(2026, 11, 3, 0);
const RUN_B = RUN_A + 6 * HOUR;
// A is published whole; B's step 1 never appears upstream.
const t = useArchive('staged-expiry', (root) => {
  for (const s of [0, 1]) writeGfsStep(root, RUN_A, s);
  writeGfsStep(root, RUN_B, 0);
});
const syncDir = () => join(t.data, 'sync');
const stagingB = () => join(syncDir(), 'gfs-0p25', 'staging', '2026120306');
/** A poller's pass of `runMs` at `nowMs`, keeping runs a day. */
const pass = (runMs: number, nowMs: number) => syncRun(pollOptions(t, { runMs, steps: '0-1', keepDays: 1, now: () => nowMs }));
const listed = async (nowMs: number) =>
  (await readSyncedModels(syncDir(), nowMs))[0]!.runs.map((r) => [r.initMs, r.status, r.expirationMs, r.store, r.abandoned ?? false]);

test('a staged run is EXPIRED from its expirationTime on, and the next pass remembers it so and removes its steps', async () => {
  expect(await pass(RUN_A, RUN_A + 4 * HOUR)).toMatchObject({ state: 'published' });
  expect(await pass(RUN_B, RUN_B + 4 * HOUR)).toEqual({ state: 'pending', runMs: RUN_B, staged: 1, of: 2 });
  expect((await listed(RUN_B + DAY - 1))[0]).toEqual([RUN_B, 'INITIALIZING', RUN_B + DAY, null, false]);

  // No pass since: at its expirationTime the staged run is EXPIRED, given up unpublished.
  const expired = [
    [RUN_B, 'EXPIRED', RUN_B + DAY, null, true],
    [RUN_A, 'EXPIRED', RUN_A + DAY, null, false],
  ];
  expect(await listed(RUN_B + DAY)).toEqual(expired);

  // The next pass, still asked for B, is refused without a request; it records B as every reader read it and frees its steps.
  const requests = t.server.log.length;
  await expect(pass(RUN_B, RUN_B + DAY + HOUR)).rejects.toThrow(SyncConfigError);
  expect(t.server.log.length).toBe(requests);
  expect(existsSync(stagingB())).toBe(false);
  const registry = await readSourceRegistry(join(syncDir(), 'gfs-0p25'), 'gfs-0p25');
  expect(registry.expired.map((e) => [e.run, e.steps, e.at, e.abandoned ?? false])).toEqual([
    [new Date(RUN_B).toISOString(), [0], new Date(RUN_B + DAY).toISOString(), true],
    [new Date(RUN_A).toISOString(), [0, 1], new Date(RUN_A + DAY).toISOString(), false],
  ]);
  expect(await listed(RUN_B + DAY + HOUR)).toEqual(expired);

  // A later pass remembers it once; a poll of the newest run does not look for it either.
  await expect(pass(RUN_B, RUN_B + DAY + 2 * HOUR)).rejects.toThrow(SyncConfigError);
  const before = t.server.log.length;
  const newest = syncRun(pollOptions(t, { steps: '0-1', keepDays: 1, now: () => RUN_B + DAY + 2 * HOUR }));
  await expect(newest).rejects.toThrow('no run of the last two days that has not expired');
  const runDirB = gfsPath(RUN_B, 0).split('/').slice(0, 2).join('/');
  expect(t.server.log.slice(before).filter((r) => r.path.includes(runDirB))).toEqual([]);
  expect((await readSourceRegistry(join(syncDir(), 'gfs-0p25'), 'gfs-0p25')).expired).toEqual(registry.expired);
});
