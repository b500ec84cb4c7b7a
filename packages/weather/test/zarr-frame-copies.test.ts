import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRAMES_OF, frameChunks, framesName, GridStoreWriter, ZarrSource } from '../src/index.js';

/*
 * A store's frame copy (docs/decisions/0505-frame-copies-of-synced-runs.md): the values of an
 * array one step a chunk. A map of one step reads it where it reads fewer chunk values than the
 * array, a series or a long window the array; a store without it reads the array. Which one a read
 * took is seen by removing the other's chunk files (a chunk never written reads as NaN).
 */
const T0 = Date.UTC(2026, 11, 5);
const HOUR_MS = 3_600_000;
const HOURS = 48;
const LATS = Array.from({ length: 80 }, (_, i) => 30 + 0.25 * i);
const LONS = Array.from({ length: 90 }, (_, j) => -10 + 0.25 * j);
const NAME = 'air_temperature';
/** Not exact in float32, so a copy that went through float64 arithmetic would differ. */
const value = (t: number, lat: number, lon: number) => Math.fround(lat / 3 + lon / 7 + t * 0.1);
const values = Float32Array.from({ length: HOURS * LATS.length * LONS.length }, (_, k) => {
  const t = Math.floor(k / (LATS.length * LONS.length));
  const cell = k % (LATS.length * LONS.length);
  return value(t, LATS[Math.floor(cell / LONS.length)]!, LONS[cell % LONS.length]!);
});
const BOX = [-10, 30, 12.25, 49.75] as [number, number, number, number];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-frame-copies-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A store of NAME and, unless `copy` is false, its frame copy; its path. */
async function writeStore(copy = true): Promise<string> {
  const path = join(dir, 'store.zarr');
  const w = await GridStoreWriter.create(path, { lats: LATS, lons: LONS, attributes: { title: 'frames' } });
  await w.addTimeAxis({ name: 'time', startMs: T0, stepMs: HOUR_MS, length: HOURS });
  const attributes = { standard_name: NAME, units: 'degC' };
  await w.addVariable({ name: NAME, time: 'time', attributes });
  await w.write(NAME, values);
  if (copy) {
    const chunks = frameChunks(LATS.length, LONS.length);
    await w.addVariable({ name: framesName(NAME), time: 'time', attributes: { ...attributes, [FRAMES_OF]: NAME }, chunks, order: 'C' });
    await w.write(framesName(NAME), values);
  }
  await w.close();
  return path;
}

/** Removes the chunk files of array `name` (its metadata stays). */
async function removeChunks(store: string, name: string): Promise<void> {
  for (const file of await fs.readdir(join(store, name))) if (!file.startsWith('.')) await fs.rm(join(store, name, file));
}

const hour = (t: number) => Float32Array.from(LATS.flatMap((lat) => LONS.map((lon) => value(t, lat, lon))));

it('is no variable or array of its own', async () => {
  const store = await ZarrSource.open(await writeStore());
  expect(store.variables().map((v) => v.id)).toEqual([NAME]);
  expect(store.arrays().map((a) => a.name)).toEqual([NAME]);
  await store.close();
});

it('answers a slice of one hour, value for value', async () => {
  const path = await writeStore();
  await removeChunks(path, NAME);
  const store = await ZarrSource.open(path);
  const slice = await store.slice(NAME, BOX, T0 + 7 * HOUR_MS);
  expect(slice.values).toEqual(hour(7));
  await store.close();
});

it("leaves a point series and a long window to the array's own chunks", async () => {
  const path = await writeStore();
  await removeChunks(path, framesName(NAME));
  const store = await ZarrSource.open(path);
  const series = await store.pointSeries(NAME, LONS[3]!, LATS[5]!, { startMs: T0, endMs: T0 + (HOURS - 1) * HOUR_MS });
  expect(Array.from(series.values)).toEqual(Array.from({ length: HOURS }, (_, t) => value(t, LATS[5]!, LONS[3]!)));
  const window = await store.window(NAME, [-10, 30, -9, 31], { startMs: T0, endMs: T0 + (HOURS - 1) * HOUR_MS });
  expect(window.values.every((v) => !Number.isNaN(v))).toBe(true);
  await store.close();
});

it('is not needed: a store without it answers from the array', async () => {
  const store = await ZarrSource.open(await writeStore(false));
  expect((await store.slice(NAME, BOX, T0 + 7 * HOUR_MS)).values).toEqual(hour(7));
  await store.close();
});
