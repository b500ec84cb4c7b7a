/**
 * A 404 for a step is upstream's "not yet" only while its run is among the newest a poll looks
 * for (8 runs, two days of GFS): past that the step has been deleted upstream or was never
 * written, and a poll waiting for it would stay pending forever. The pass fails instead, naming
 * the step (docs/decisions/0364-a-poll-waits-for-a-step-while-its-run-is-recent.md).
 */
import { renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { StepMissingError, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { gfsPath, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const t = useArchive('step-missing', (root) => {
  for (const s of [0, 1, 2, 3]) writeGfsStep(root, RUN, s);
  // step 2: inventory and file gone; step 3: inventory there, file gone
  unlinkSync(join(root, `${gfsPath(RUN, 2)}.idx`));
  renameSync(join(root, gfsPath(RUN, 2)), join(root, `${gfsPath(RUN, 2)}.gone`));
});

const poll = (nowMs: number, steps = '0-3') => syncRun(pollOptions(t, { runMs: RUN, steps, now: () => nowMs }));

test('a step missing while its run is recent leaves the pass pending', async () => {
  expect(await poll(RUN + 4 * HOUR)).toEqual({ state: 'pending', runMs: RUN, staged: 2, of: 4 });
  // the last of the 8 newest runs: still waited for
  expect(await poll(RUN + 47 * HOUR)).toEqual({ state: 'pending', runMs: RUN, staged: 2, of: 4 });
});

test('a step whose inventory is still missing once its run is older than the runs a poll waits for fails the pass, naming it', async () => {
  const failure = await poll(RUN + 48 * HOUR).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(StepMissingError);
  expect((failure as Error).message).toMatch(
    /f002\.idx: HTTP 404 .*still missing 48 h after the run 2026-12-03T00Z started, past the 8 newest runs/,
  );
});

test('so does a step whose inventory is there and whose file is not', async () => {
  renameSync(join(t.archive, `${gfsPath(RUN, 2)}.gone`), join(t.archive, gfsPath(RUN, 2)));
  writeGfsStep(t.archive, RUN, 2);
  unlinkSync(join(t.archive, gfsPath(RUN, 3)));
  const failure = await poll(RUN + 72 * HOUR).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(StepMissingError);
  expect((failure as Error).message).toMatch(/f003: HTTP 404 .*still missing 72 h after the run/);
});
