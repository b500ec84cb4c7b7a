/**
 * `fieldcast sync --run` of a run past its expirationTime (its start plus
 * FIELDCAST_SYNC_KEEP_DAYS, docs/decisions/0255-synced-runs-as-models.md) is refused before any of
 * its steps is fetched, upstream up or not: the run is EXPIRED for every reader
 * (docs/decisions/0363-synced-runs-expire-on-the-clock.md), so publishing it again would serve
 * nothing, write over the retired store readers may still hold, and record it expired twice.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceRegistry } from '@fieldcast/weather';
import { readSyncedModels, SyncConfigError, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RUN = Date.UTC(2026, 11, 3, 0);
const t = useArchive('expired-named', (root) => {
  for (const s of [0, 1]) writeGfsStep(root, RUN, s);
});
const sourceDir = () => join(t.data, 'sync', 'gfs-0p25');
/** `fieldcast sync gfs-0p25 --run 2026-12-03T00Z --steps 0-1 --once` at `nowMs`, keeping runs a day. */
const once = (nowMs: number) => syncRun(pollOptions(t, { runMs: RUN, steps: '0-1', keepDays: 1, partial: false, now: () => nowMs }));

test('a named run past its expirationTime is refused, naming it and its expirationTime, and nothing is fetched or written', async () => {
  expect(await once(RUN + 4 * HOUR)).toMatchObject({ state: 'published' });
  const store = join(sourceDir(), 'runs', '2026120300.zarr');

  const refuse = async (nowMs: number) => {
    const requests = t.server.log.length;
    const refused = once(nowMs);
    await expect(refused).rejects.toThrow(SyncConfigError);
    await expect(refused).rejects.toThrow(
      'gfs-0p25 run 2026-12-03T00Z expired at 2026-12-04T00:00:00.000Z (its start plus FIELDCAST_SYNC_KEEP_DAYS=1); not syncing it',
    );
    expect(t.server.log.length).toBe(requests);
    return readSourceRegistry(sourceDir(), 'gfs-0p25');
  };
  const expired = [
    { run: new Date(RUN).toISOString(), steps: [0, 1], createdAt: expect.any(String), at: new Date(RUN + DAY).toISOString() },
  ];

  // The pass still takes the run out, once: one expired entry, its store retired once and left for readers.
  const first = await refuse(RUN + DAY);
  expect([first.runs, first.expired, first.retired]).toEqual([
    [],
    expired,
    [{ path: 'runs/2026120300.zarr', at: new Date(RUN + DAY).toISOString() }],
  ]);
  expect(existsSync(store)).toBe(true);

  // Asked again once readers have let it go: still refused, remembered once, its store removed and not written again.
  const second = await refuse(RUN + DAY + HOUR);
  expect([second.runs, second.expired, second.retired]).toEqual([[], expired, []]);
  expect(existsSync(store)).toBe(false);
  const [model] = await readSyncedModels(join(t.data, 'sync'), RUN + DAY + HOUR);
  expect(model!.runs.map((r) => [r.initMs, r.status, r.expirationMs])).toEqual([[RUN, 'EXPIRED', RUN + DAY]]);
});
