/**
 * A staged step file that cannot be read whole (its header cut short or garbage, its values
 * shorter than its header says: a crash or a disk fault under the rename of
 * docs/decisions/0250-synced-runs-staged-then-published.md) is refused and reported by the next
 * pass, which fetches the step again and publishes the run whole; the model area's reader lists
 * the run without it rather than fail.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { ZarrSource, readSourceRegistry } from '@fieldcast/weather';
import { readSyncedModels, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { analytic, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const t = useArchive('unreadable', (root) => {
  for (const s of [0, 1, 2]) writeGfsStep(root, RUN, s);
});

const sync = (lines: string[]) =>
  syncRun(pollOptions(t, { runMs: RUN, steps: '0-3', now: () => RUN + 4 * HOUR, progress: (l) => lines.push(l) }));

test('a staged step with a garbage or cut header, or cut values, is refused, reported and fetched again', async () => {
  expect(await sync([])).toMatchObject({ state: 'pending', staged: 3, of: 4 });
  const staging = join(t.data, 'sync', 'gfs-0p25', 'staging', '2026120300');
  await fs.writeFile(join(staging, 'step-000.f32'), Buffer.from('\x40\x00\x00\x00{"grid":{"ni":8,'));
  await fs.writeFile(join(staging, 'step-001.f32'), Buffer.from([0x01, 0x02]));
  const step2 = join(staging, 'step-002.f32');
  await fs.truncate(step2, (await fs.stat(step2)).size - 4);

  const [model] = await readSyncedModels(join(t.data, 'sync'));
  expect(model!.runs.map((r) => [r.initMs, r.steps])).toEqual([]);

  writeGfsStep(t.archive, RUN, 3);
  const lines: string[] = [];
  expect(await sync(lines)).toMatchObject({ state: 'published', steps: 4 });
  for (const file of ['step-000.f32', 'step-001.f32', 'step-002.f32'])
    expect(lines.some((l) => l.includes(file) && /unreadable.*fetching the step again/.test(l))).toBe(true);
  const registry = await readSourceRegistry(join(t.data, 'sync', 'gfs-0p25'), 'gfs-0p25');
  const store = await ZarrSource.open(join(t.data, 'sync', 'gfs-0p25', registry.runs[0]!.path));
  try {
    const series = await store.pointSeries('air_temperature', 10.3, 45.6, { startMs: RUN, endMs: RUN + 3 * HOUR });
    series.values.forEach((v, h) => expect(v).toBeCloseTo(analytic.temperatureK(45.6, 10.3, h) - 273.15, 2));
  } finally {
    await store.close();
  }
});
