/**
 * The mean rates' axis of a synced run's store and of the analysis states the hour each value
 * covers as CF time bounds (CF 1.11 §7.1, docs/decisions/0379-time-cells-of-mean-rates.md): the
 * hour ending at each stamp, of the axis' length, through appends (a gap of hours no run gave
 * among them), a trim into a new store, and in an analysis made before the sync wrote bounds.
 * Each store is read twice: its bounds array as the files hold it, and by the store reader with
 * the axis renamed, so that its cell can come from nothing but the bounds.
 */
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSourceRegistry, ZarrSource } from '@fieldcast/weather';
import { syncRun } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN_A = Date.UTC(2026, 11, 2, 18);
const RUN_B = RUN_A + 6 * HOUR;
const RUN_C = RUN_A + 31 * 24 * HOUR;
const AXIS = 'time_mean_1h';
const BOUNDS = `${AXIS}_bnds`;

let archive: string;
let data: string;
let server: ArchiveServer;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'rate-bounds-archive-'));
  data = mkdtempSync(join(tmpdir(), 'rate-bounds-data-'));
  for (const run of [RUN_A, RUN_B]) for (let s = 0; s <= 6; s++) writeGfsStep(archive, run, s);
  for (let s = 0; s <= 2; s++) writeGfsStep(archive, RUN_C, s);
  server = await serveArchive(archive);
});
afterAll(async () => {
  await server.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const sync = (syncDir: string, runMs: number, steps: string, keepDays = 400) =>
  syncRun({
    source: 'gfs-0p25',
    baseUrl: server.baseUrl,
    syncDir,
    runMs,
    steps,
    keepDays,
    now: () => runMs + 5 * HOUR,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
  });

type Metadata = Record<string, Record<string, unknown> & { shape?: number[] }>;
const metadataOf = async (store: string) =>
  (JSON.parse(await fs.readFile(join(store, '.zmetadata'), 'utf8')) as { metadata: Metadata }).metadata;

/** A float64 array's first `n` values from its first chunk file (uncompressed, C order). */
async function float64s(file: string, n: number): Promise<number[]> {
  const raw = await fs.readFile(file);
  return Array.from(new Float64Array(raw.buffer, raw.byteOffset, n));
}

/**
 * The rates' axis as the files hold it: its stamps (hours since 1970) and its bounds' rows, each
 * read as long as its own declared shape says.
 */
async function ratesAxis(store: string): Promise<{ stamps: number[]; bounds: number[][]; attribute: unknown }> {
  const metadata = await metadataOf(store);
  const n = metadata[`${AXIS}/.zarray`]!.shape![0]!;
  const shape = metadata[`${BOUNDS}/.zarray`]?.shape;
  const stamps = await float64s(join(store, AXIS, '0'), n);
  const flat = shape ? await float64s(join(store, BOUNDS, '0.0'), shape[0]! * 2) : [];
  return {
    stamps,
    bounds: Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i]!, flat[2 * i + 1]!]),
    attribute: metadata[`${AXIS}/.zattrs`]!.bounds,
  };
}

/** Each stamp's bounds are the hour ending at it, and there is one row a stamp. */
async function expectHourEndingBounds(store: string, firstMs: number, length: number): Promise<void> {
  const { stamps, bounds, attribute } = await ratesAxis(store);
  expect(attribute).toBe(BOUNDS);
  expect(stamps).toEqual(Array.from({ length }, (_, i) => firstMs / HOUR + i));
  expect(bounds).toEqual(stamps.map((t) => [t - 1, t]));
}

/** A copy of the store with the rates' axis renamed, so its name tells the reader nothing. */
async function renamedAxis(store: string, to: string): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), 'rate-bounds-renamed-'));
  await fs.cp(store, copy, { recursive: true });
  for (const name of [AXIS, BOUNDS]) await fs.rename(join(copy, name), join(copy, name.replace(AXIS, to)));
  const rewrite = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) await rewrite(file);
      else if (entry.name.startsWith('.z')) await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replaceAll(AXIS, to));
    }
  };
  await rewrite(copy);
  return copy;
}

/** The rates' cell the store reader gives, with the axis renamed. */
async function readerCell(store: string): Promise<unknown> {
  const copy = await renamedAxis(store, 'time_of_rates');
  const source = await ZarrSource.open(copy);
  try {
    const precipitation = source.variables().find((v) => v.id === 'precipitation_rate')!;
    expect(source.arrayFor('precipitation_rate')!.time).toMatchObject({ name: 'time_of_rates', cell: [-HOUR, 0] });
    return precipitation.timeCell;
  } finally {
    await source.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

it("a synced run's store: the rates' bounds are the hour ending at each stamp", async () => {
  const syncDir = join(data, 'run');
  await sync(syncDir, RUN_A, '0-6');
  const registry = await readSourceRegistry(join(syncDir, 'gfs-0p25'), 'gfs-0p25');
  const store = join(syncDir, 'gfs-0p25', registry.runs[0]!.path);
  await expectHourEndingBounds(store, RUN_A + HOUR, 6);
  expect(await readerCell(store)).toEqual([-HOUR, 0]);
});

it('the analysis: bounds as long as the axis after two appends (a gap between them) and a trim into a new store', async () => {
  const syncDir = join(data, 'analysis');
  const sourceDir = join(syncDir, 'gfs-0p25');
  await sync(syncDir, RUN_A, '0-6');
  await expectHourEndingBounds(join(sourceDir, 'analysis.zarr'), RUN_A + HOUR, 6);
  // 31 days later, with FIELDCAST_SYNC_KEEP_DAYS 1: appended after a month no run gave, then the
  // first 30 days trimmed into a store of a new name.
  await sync(syncDir, RUN_C, '0-2', 1);
  const registry = await readSourceRegistry(sourceDir, 'gfs-0p25');
  expect(registry.analysis).not.toBe('analysis.zarr');
  // the analysis before the trim (retired), after its second append
  const untrimmed = join(sourceDir, 'analysis.zarr');
  await expectHourEndingBounds(untrimmed, RUN_A + HOUR, (RUN_C + 2 * HOUR - (RUN_A + HOUR)) / HOUR + 1);
  expect(await readerCell(untrimmed)).toEqual([-HOUR, 0]);
  const trimmed = join(sourceDir, registry.analysis!);
  await expectHourEndingBounds(trimmed, RUN_A + HOUR + 720 * HOUR, (RUN_C + 2 * HOUR - (RUN_A + HOUR)) / HOUR + 1 - 720);
  expect(await readerCell(trimmed)).toEqual([-HOUR, 0]);
});

it('an analysis made before the sync wrote bounds gets them, over all its hours, at its next append', async () => {
  const syncDir = join(data, 'before-bounds');
  const analysis = join(syncDir, 'gfs-0p25', 'analysis.zarr');
  await sync(syncDir, RUN_A, '0-6');
  // The analysis as a sync without bounds left it: no bounds array, no `bounds` attribute.
  const metadata = await metadataOf(analysis);
  for (const key of Object.keys(metadata)) if (key.startsWith(`${BOUNDS}/`)) delete metadata[key];
  delete metadata[`${AXIS}/.zattrs`]!.bounds;
  await fs.writeFile(join(analysis, '.zmetadata'), JSON.stringify({ metadata, zarr_consolidated_format: 1 }));
  await fs.writeFile(join(analysis, AXIS, '.zattrs'), JSON.stringify(metadata[`${AXIS}/.zattrs`]));
  await fs.rm(join(analysis, BOUNDS), { recursive: true });
  expect((await ratesAxis(analysis)).bounds).toEqual([]);

  await sync(syncDir, RUN_B, '0-6');
  await expectHourEndingBounds(analysis, RUN_A + HOUR, 12);
  expect(await readerCell(analysis)).toEqual([-HOUR, 0]);
});
