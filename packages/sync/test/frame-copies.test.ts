/**
 * The frame copy of each hourly array of a run's store and of the analysis
 * (docs/decisions/0505-frame-copies-of-synced-runs.md): the same float32 values as the
 * point-series array, one hour a chunk, written with the store (staged, then renamed whole) and
 * appended and trimmed with the analysis. The grid crosses a frame chunk's edge both ways (600
 * columns, 70 rows), and one run is written in blocks narrower than a frame chunk.
 */
import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LatLonGrid } from '@fieldcast/grib2';
import { FRAMES_OF, frameChunks, framesName } from '@fieldcast/weather';
import { appendAnalysis, trimAnalysis } from '../src/analysis-store.js';
import type { ConvertedStep } from '../src/run.js';
import { writeRunStore } from '../src/run-store.js';
import { stageStep, stagedSteps } from '../src/staging.js';

const RUN = Date.UTC(2026, 11, 3, 0);
const HOUR = 3_600_000;
const GRID = { ni: 600, nj: 70, lat0: 60, lon0: 0, dLat: 0.25, dLon: 0.25 } as LatLonGrid;
/** The analysis' grid: smaller, as its 30-day chunks are written cell by cell. */
const NARROW = { ...GRID, ni: 24, nj: 16 } as LatLonGrid;
const HOURLY = ['air_temperature', 'dew_point_temperature', 'precipitation_rate'] as const;

/** A value of a step's field at a staged row and column: not exact in float32, different in every cell and step. */
const valueOf = (variable: string, hour: number, row: number, column: number) =>
  variable === 'precipitation_rate'
    ? (row * 7 + column) / 3000 + hour / 7
    : 10 + row / 9 + column / 70 + hour / 3 - (variable === 'air_temperature' ? 0 : 5);

/** Steps 0, 1, 2 and 5 (hours 3 and 4 between steps, as a model's 3-hourly steps are). */
function step(grid: LatLonGrid, runMs: number, hour: number, before: number): ConvertedStep {
  const field = (variable: string) =>
    Float32Array.from({ length: grid.ni * grid.nj }, (_, k) => valueOf(variable, hour, Math.floor(k / grid.ni), k % grid.ni));
  return {
    step: hour,
    validMs: runMs + hour * HOUR,
    grid,
    fields: [
      { variable: 'air_temperature', startMs: runMs + hour * HOUR, endMs: runMs + hour * HOUR, values: field('air_temperature') },
      {
        variable: 'dew_point_temperature',
        startMs: runMs + hour * HOUR,
        endMs: runMs + hour * HOUR,
        values: field('dew_point_temperature'),
      },
      ...(hour > 0
        ? [
            {
              variable: 'precipitation_rate' as const,
              startMs: runMs + before * HOUR,
              endMs: runMs + hour * HOUR,
              values: field('precipitation_rate'),
            },
          ]
        : []),
    ],
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sync-frame-copies-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The run at runMs staged and written as `<dir>/runs/<name>`; the store's path. */
async function runStore(grid: LatLonGrid, runMs: number, name: string, slabBytes?: number): Promise<string> {
  const staging = join(dir, 'staging', name);
  const hours = [0, 1, 2, 5];
  let staged = null;
  for (const [k, h] of hours.entries()) {
    await stageStep(staging, step(grid, runMs, h, hours[k - 1] ?? 0), staged);
    staged = (await stagedSteps(staging))[0]!.grid;
  }
  const store = join(dir, 'runs', name);
  await fs.mkdir(join(dir, 'runs'), { recursive: true });
  await writeRunStore(store, await stagedSteps(staging), { runMs, attributes: { product: 'test' }, ...(slabBytes ? { slabBytes } : {}) });
  return store;
}

/**
 * Array `name` of the store as [time][lat][lon] values, read from its chunk files as Zarr v2 lays
 * them out ("Chunk encoding": uncompressed, edge chunks padded, C or F order, a chunk never
 * written its fill value NaN), with its chunks and attributes.
 */
async function arrayOf(store: string, name: string) {
  const zarray = JSON.parse(await fs.readFile(join(store, name, '.zarray'), 'utf8')) as {
    shape: number[];
    chunks: number[];
    order: 'C' | 'F';
  };
  const attrs = JSON.parse(await fs.readFile(join(store, name, '.zattrs'), 'utf8')) as Record<string, unknown>;
  const [nt, ni, nj] = zarray.shape as [number, number, number];
  const [ct, ci, cj] = zarray.chunks as [number, number, number];
  const values = new Float32Array(nt * ni * nj).fill(NaN);
  for (let kt = 0; kt * ct < nt; kt++)
    for (let ki = 0; ki * ci < ni; ki++)
      for (let kj = 0; kj * cj < nj; kj++) {
        const bytes = await fs.readFile(join(store, name, `${kt}.${ki}.${kj}`)).catch(() => null);
        if (!bytes) continue;
        const chunk = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
        for (let t = kt * ct; t < Math.min(nt, (kt + 1) * ct); t++)
          for (let i = ki * ci; i < Math.min(ni, (ki + 1) * ci); i++)
            for (let j = kj * cj; j < Math.min(nj, (kj + 1) * cj); j++) {
              const [a, b, c] = [t - kt * ct, i - ki * ci, j - kj * cj];
              values[(t * ni + i) * nj + j] = chunk[zarray.order === 'F' ? a + ct * (b + ci * c) : (a * ci + b) * cj + c]!;
            }
      }
  return { values, shape: zarray.shape, chunks: zarray.chunks, attrs };
}

/** Each hourly array and its frame copy hold the same values, NaN where the array has NaN. */
async function expectSameFrames(store: string, grid: LatLonGrid): Promise<void> {
  for (const variable of HOURLY) {
    const series = await arrayOf(store, variable);
    const frames = await arrayOf(store, framesName(variable));
    expect(frames.attrs[FRAMES_OF]).toBe(variable);
    expect(frames.chunks).toEqual(frameChunks(grid.nj, grid.ni));
    expect(frames.shape).toEqual(series.shape);
    expect(series.values.some((v) => !Number.isNaN(v))).toBe(true);
    // toEqual on typed arrays compares every element, NaN equal to NaN.
    expect(frames.values).toEqual(series.values);
  }
}

it("a run's store holds each hourly array's frame copy, value for value", async () => {
  const store = await runStore(GRID, RUN, '2026120300.zarr');
  expect(frameChunks(GRID.nj, GRID.ni)).toEqual([1, 64, 512]);
  await expectSameFrames(store, GRID);
}, 60_000);

it('so does one written in blocks narrower than a frame chunk', async () => {
  // 6 hours x 8 rows x 4 bytes x 136 columns: blocks of 136 columns, across the frame chunk's edge at 512.
  await expectSameFrames(await runStore(GRID, RUN, '2026120300.zarr', 6 * 8 * 4 * 136), GRID);
}, 60_000);

it('the analysis holds the frame copy of the hours appended, gaps missing alike, and keeps it when trimmed', async () => {
  const analysis = join(dir, 'analysis.zarr');
  const first = await runStore(NARROW, RUN, 'first.zarr');
  // 35 days later: a gap of hours no run gave, and a second 30-day chunk of the analysis.
  const later = RUN + 35 * 24 * HOUR;
  const second = await runStore(NARROW, later, 'second.zarr');
  expect(await appendAnalysis(analysis, { runStore: first, hours: 6, attributes: {} })).toBeGreaterThan(0);
  expect(await appendAnalysis(analysis, { runStore: second, hours: 6, attributes: {} })).toBeGreaterThan(0);
  // The runs' stores removed, as retention removes them: the analysis' hours stay.
  await fs.rm(join(dir, 'runs'), { recursive: true });
  await expectSameFrames(analysis, NARROW);
  const temperature = await arrayOf(analysis, framesName('air_temperature'));
  expect(temperature.shape[0]).toBe(35 * 24 + 6);

  const trimmed = join(dir, 'analysis-trimmed.zarr');
  expect(await trimAnalysis(analysis, trimmed, RUN + 31 * 24 * HOUR)).toBe(true);
  await fs.rm(analysis, { recursive: true });
  await expectSameFrames(trimmed, NARROW);
  expect((await arrayOf(trimmed, framesName('air_temperature'))).shape[0]).toBe(5 * 24 + 6);
}, 60_000);
