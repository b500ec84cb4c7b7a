/**
 * A poll picks the newest run published among those not yet expired: with FIELDCAST_SYNC_KEEP_DAYS
 * shorter than the two days a poll looks back over, an upstream whose newest run is older than
 * the kept days has nothing to sync, and the pass says so, rather than pick that run and refuse it
 * at every pass (docs/decisions/0372-staged-runs-expire-and-polls-pick-unexpired-runs.md).
 */
import { join } from 'node:path';
import { SyncConfigError, SyncError, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { gfsPath, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RUN = Date.UTC(2026, 11, 3, 0);
const NEXT = RUN + DAY;
const t = useArchive('poll-skips-expired', (root) => {
  for (const s of [0, 1]) writeGfsStep(root, RUN, s);
});
/** A poller's pass at `nowMs` of the newest run, keeping runs a day. */
const poll = (nowMs: number) => syncRun(pollOptions(t, { steps: '0-1', keepDays: 1, now: () => nowMs }));
/** The requests since `from` for a run's files. */
const requestsOf = (runMs: number, from: number) => {
  const runDir = gfsPath(runMs, 0).split('/').slice(0, 2).join('/');
  return t.server.log.slice(from).filter((r) => r.path.includes(runDir));
};

test('a poll skips runs past their expirationTime: nothing of them is fetched, and the pass names the kept days', async () => {
  expect(await poll(RUN + 4 * HOUR)).toMatchObject({ state: 'published', runMs: RUN });
  // Upstream's newest run is RUN, a day old: it has expired, so there is no run to sync.
  const from = t.server.log.length;
  const failure = await poll(RUN + DAY + HOUR).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(SyncError);
  expect(failure).not.toBeInstanceOf(SyncConfigError);
  expect((failure as Error).message).toBe(
    `no run of the last two days that has not expired is published at ${t.server.baseUrl} (a run expires FIELDCAST_SYNC_KEEP_DAYS=1 days after its start)`,
  );
  expect(requestsOf(RUN, from)).toEqual([]);
  // Kept the default 400 days, the same run at the same instant is still the one to sync.
  const kept = syncRun(pollOptions(t, { syncDir: join(t.data, 'kept'), steps: '0-1', now: () => RUN + DAY + HOUR }));
  expect(await kept).toMatchObject({ state: 'published', runMs: RUN });

  // Once upstream publishes a newer run, the next pass syncs it.
  for (const s of [0, 1]) writeGfsStep(t.archive, NEXT, s);
  expect(await poll(NEXT + 4 * HOUR)).toMatchObject({ state: 'published', runMs: NEXT });
});
