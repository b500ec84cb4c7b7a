/**
 * A pass stopped between its two writes of a published run (the registry naming the run, the
 * analysis taking its first hours; a crash, or `serve sync`'s lock lost with its session) leaves
 * nothing a reader could find inconsistent: the analysis never holds hours of a run the registry
 * does not name. The next pass brings the analysis up to the registry and announces it by writing
 * the registry again (docs/decisions/0363-synced-runs-expire-on-the-clock.md;
 * docs/decisions/0250-synced-runs-staged-then-published.md).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceRegistry, ZarrSource } from '@fieldcast/weather';
import { syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN_A = Date.UTC(2026, 11, 3, 0);
const RUN_B = RUN_A + 6 * HOUR;
const t = useArchive('analysis-after-registry', (root) => {
  for (const run of [RUN_A, RUN_B]) for (let s = 0; s <= 6; s++) writeGfsStep(root, run, s);
});
const sourceDir = () => join(t.data, 'sync', 'gfs-0p25');

/** The end of the analysis' hours (its mean rates end an hour after its instants). */
async function analysisEnd(): Promise<number> {
  const registry = await readSourceRegistry(sourceDir(), 'gfs-0p25');
  const store = await ZarrSource.open(join(sourceDir(), registry.analysis!));
  try {
    return store.coverage().endMs;
  } finally {
    await store.close();
  }
}

const listed = async () => (await readSourceRegistry(sourceDir(), 'gfs-0p25')).runs.map((r) => Date.parse(r.run));

test('a pass stopped after the first of its two writes leaves the analysis holding no hours of a run the registry does not name; the next pass completes both', async () => {
  const sync = (runMs: number, extra: Partial<Parameters<typeof pollOptions>[1]> = {}) =>
    syncRun(pollOptions(t, { runMs, steps: '0-6', now: () => runMs + 7 * HOUR, ...extra }));
  expect(await sync(RUN_A)).toMatchObject({ state: 'published' });
  expect(await analysisEnd()).toBe(RUN_A + 6 * HOUR);

  // The pass stops (its signal aborted) as soon as either the registry names B or the analysis took B's hours.
  const stop = new AbortController();
  const lines: string[] = [];
  const progress = (line: string) => {
    lines.push(line);
    if (/: published$|the analysis took/.test(line)) stop.abort(new Error('stopped between the two writes'));
  };
  await expect(sync(RUN_B, { signal: stop.signal, progress })).rejects.toThrow(/stopped between the two writes/);
  expect(stop.signal.aborted).toBe(true);
  if (!(await listed()).includes(RUN_B)) expect(await analysisEnd()).toBeLessThanOrEqual(RUN_B);

  // The next pass finds the run published and the analysis behind it: it catches the analysis up
  // and writes the registry after it, so serving processes open the analysis again.
  expect(await sync(RUN_B)).toMatchObject({ state: expect.stringMatching(/^(up-to-date|published)$/) });
  expect(await listed()).toEqual([RUN_B, RUN_A]);
  expect(await analysisEnd()).toBe(RUN_B + 6 * HOUR);
  const registry = await readSourceRegistry(sourceDir(), 'gfs-0p25');
  expect(statSync(join(sourceDir(), 'registry.json')).mtimeMs).toBeGreaterThanOrEqual(
    statSync(join(sourceDir(), registry.analysis!, '.zmetadata')).mtimeMs,
  );
});
