import { cpSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { CompositeSource, framesName, NoSyntheticSource, ZarrSource } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { sampleTile } from '../src/domain/sampling.js';

/*
 * A tile of a synced run drawn from the frame copies the sync writes beside its point-series
 * arrays (docs/decisions/0505-frame-copies-of-synced-runs.md) is the tile drawn from the arrays
 * themselves, pixel for pixel, and a store without the copies (synced by an earlier release) draws
 * it too. That the copy is what was read shows once the array's own chunk files are gone.
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
/**
 * 40.25 to 60 N, 0 to 24.75 E by 0.25, two frame chunks tall, the stand-in archive's analytic
 * weather: with 13 hours a band of the tile below holds fewer values of the frame copy's chunks than
 * of the array's, so each is read from the copy (zarr-source.ts).
 */
const GRID = { ni: 100, nj: 80, lat1: 60, lon1: 0, dLat: 0.25, dLon: 0.25 };
/** Inside the store's cells (0 to 22.5 E, 41 to 55.8 N), where a band is one window read. */
const TILE = { z: 4, x: 8, y: 5 };
const VARIABLE = 'air_temperature';

let run: OneSyncedRun;
let store: string;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, { archived: Array.from({ length: 13 }, (_, k) => k), grid: GRID, synthetic: false });
  const runs = join(run.syncDir, 'gfs-0p25', 'runs');
  store = join(
    runs,
    (await fs.readdir(runs)).find((f) => f.endsWith('.zarr'))!,
  );
}, 120_000);

afterAll(() => run?.close());

/** A copy of the run's store beside it, changed by `change`; the tile of hour 7 drawn from it in `mode`. */
async function tileOf(name: string, mode: 'linear' | 'discrete', change: (copy: string) => Promise<void>): Promise<Float32Array> {
  const copy = join(run.syncDir, `${name}-${mode}.zarr`);
  cpSync(store, copy, { recursive: true });
  await change(copy);
  const source = await ZarrSource.open(copy);
  try {
    return await sampleTile(new CompositeSource([source, new NoSyntheticSource()]), VARIABLE, RUN + 7 * H, TILE, mode);
  } finally {
    await source.close();
  }
}

/** The store as an earlier release wrote it: no frame copies, in its metadata or on disk. */
async function withoutCopies(copy: string): Promise<void> {
  const file = join(copy, '.zmetadata');
  const consolidated = JSON.parse(await fs.readFile(file, 'utf8')) as { metadata: Record<string, unknown> };
  for (const key of Object.keys(consolidated.metadata)) if (/_frames\//.test(key)) delete consolidated.metadata[key];
  await fs.writeFile(file, JSON.stringify(consolidated));
  for (const entry of await fs.readdir(copy)) if (entry.endsWith('_frames')) await fs.rm(join(copy, entry), { recursive: true });
}

/** The temperature's point-series chunk files removed: what is still drawn comes from its frame copy. */
async function withoutSeriesChunks(copy: string): Promise<void> {
  for (const file of await fs.readdir(join(copy, VARIABLE))) if (!file.startsWith('.')) await fs.rm(join(copy, VARIABLE, file));
}

it.each(['linear', 'discrete'] as const)('a tile drawn (%s) from the frame copy is the one drawn from the series array', async (mode) => {
  expect((await fs.readdir(store)).includes(framesName(VARIABLE))).toBe(true);
  const fromSeries = await tileOf('series', mode, withoutCopies);
  const fromCopy = await tileOf('frames', mode, withoutSeriesChunks);
  expect(fromSeries.every((v) => Number.isFinite(v))).toBe(true);
  // toEqual on typed arrays compares every pixel.
  expect(fromCopy).toEqual(fromSeries);
  expect(await tileOf('synced', mode, async () => {})).toEqual(fromSeries);
});
