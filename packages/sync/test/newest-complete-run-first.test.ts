/**
 * A poll serves the newest COMPLETE run at once and stages a newer one still being published
 * beside it: a fleet that starts (or a source newly configured) while upstream has a whole run and
 * a newer half-published one publishes the whole one in its first pass, rather than serve nothing
 * until the newer one is complete, and the newer one follows, none of its staged steps fetched
 * twice (docs/decisions/0454-a-poll-serves-the-newest-complete-run-first.md).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceRegistry } from '@fieldcast/weather';
import { syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { gfsPath, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN0 = Date.UTC(2026, 11, 3, 0);
const RUN1 = RUN0 + 6 * HOUR;
const RUN2 = RUN0 + 12 * HOUR;
const RUN3 = RUN0 + 18 * HOUR;
const t = useArchive('complete-first', (root) => {
  for (const s of [0, 1, 2, 3]) writeGfsStep(root, RUN0, s);
  for (const s of [0, 1]) writeGfsStep(root, RUN1, s);
});

const poll = (nowMs: number, syncDir = join(t.data, 'sync')) => syncRun(pollOptions(t, { steps: '0-3', syncDir, now: () => nowMs }));
const served = async (syncDir = join(t.data, 'sync')) =>
  (await readSourceRegistry(join(syncDir, 'gfs-0p25'), 'gfs-0p25')).runs.map((r) => Date.parse(r.run));
/** The steps of `runMs` whose GRIB files (not inventories) were requested since `from`. */
const filesOf = (runMs: number, from: number) => [
  ...new Set(
    t.server.log
      .slice(from)
      .filter((r) => r.path.startsWith(`/${gfsPath(runMs, 0).slice(0, -3)}`) && !r.path.endsWith('.idx'))
      .map((r) => Number(r.path.slice(-3))),
  ),
];

test('with nothing served, a poll publishes the newest complete run first, then stages the newer one', async () => {
  const from = t.server.log.length;
  expect(await poll(RUN1 + 4 * HOUR)).toMatchObject({ state: 'published', runMs: RUN0, steps: 4 });
  expect(await served()).toEqual([RUN0]);
  // the newer run's files are not touched while the complete one is synced
  expect(filesOf(RUN1, from)).toEqual([]);

  expect(await poll(RUN1 + 4 * HOUR + 60_000)).toEqual({ state: 'pending', runMs: RUN1, staged: 2, of: 4 });
  expect(await served()).toEqual([RUN0]);
});

test('a served run older than the newest complete one: the complete one is published, resumed from its staged steps', async () => {
  // RUN1 is now whole upstream and RUN2 is half out; RUN0 is served and RUN1 has 2 steps staged.
  for (const s of [2, 3]) writeGfsStep(t.archive, RUN1, s);
  for (const s of [0, 1]) writeGfsStep(t.archive, RUN2, s);
  const from = t.server.log.length;
  expect(await poll(RUN2 + 4 * HOUR)).toMatchObject({ state: 'published', runMs: RUN1, steps: 4 });
  // step 1 is read again for the rates over the hour before step 2; step 0 is not fetched again
  expect(filesOf(RUN1, from)).toEqual([1, 2, 3]);
  expect(filesOf(RUN2, from)).toEqual([]);
  expect(await served()).toEqual([RUN1, RUN0]);
  expect(await poll(RUN2 + 4 * HOUR + 60_000)).toEqual({ state: 'pending', runMs: RUN2, staged: 2, of: 4 });
});

test('a complete run deleted upstream (retention) before it is synced: the poll stages the newer run instead', async () => {
  // A new data directory: nothing served. RUN0 and RUN1 are gone upstream, RUN2 is half out.
  const fresh = join(t.data, 'fresh');
  for (const run of [RUN0, RUN1]) rmSync(join(t.archive, gfsPath(run, 0).split('/').slice(0, 2).join('/')), { recursive: true });
  expect(await poll(RUN2 + 4 * HOUR, fresh)).toEqual({ state: 'pending', runMs: RUN2, staged: 2, of: 4 });
  expect(await served(fresh)).toEqual([]);
  // RUN3 becomes whole before RUN2 is: it is the newest complete run, published; RUN2's staging is given up.
  for (const s of [0, 1, 2, 3]) writeGfsStep(t.archive, RUN3, s);
  expect(await poll(RUN3 + 4 * HOUR, fresh)).toMatchObject({ state: 'published', runMs: RUN3 });
  expect(await served(fresh)).toEqual([RUN3]);
});
