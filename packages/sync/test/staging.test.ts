/**
 * Staged steps and run stores are written beside their final name and renamed
 * (docs/decisions/0250-synced-runs-staged-then-published.md). Two writers of one step or one store
 * at once - two sync processes on the shared volume, whose process ids coincide when each runs as
 * PID 1 of its own container, once the advisory lock of docs/decisions/0252-sync-as-a-process.md
 * is lost with its database session - must each write a file of their own: the one renamed last
 * is whole, never a mix of both nor cut short by the other.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LatLonGrid } from '@fieldcast/grib2';
import type { ConvertedStep } from '../src/run.js';
import { writeRunStore } from '../src/run-store.js';
import { readRows, runOfStamp, runStamp, stageStep, stagedSteps, stagingDirs } from '../src/staging.js';

const RUN = Date.UTC(2026, 11, 3, 0);
const HOUR = 3_600_000;
const GRID = { ni: 64, nj: 48, lat0: 50, lon0: 0, dLat: 0.25, dLon: 0.25 } as LatLonGrid;

/** A step whose temperature is `value` everywhere. */
const step = (hour: number, value: number): ConvertedStep => ({
  step: hour,
  validMs: RUN + hour * HOUR,
  grid: GRID,
  fields: [
    {
      variable: 'air_temperature',
      startMs: RUN + hour * HOUR,
      endMs: RUN + hour * HOUR,
      values: new Float32Array(GRID.ni * GRID.nj).fill(value),
    },
  ],
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sync-staging-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('two writers at once', () => {
  it('of one staged step: both finish, and the step is one of them whole', async () => {
    const staging = join(dir, 'staging');
    await Promise.all([1, 2, 3, 4].map((v) => stageStep(staging, step(0, v), null)));
    const [staged] = await stagedSteps(staging);
    const handle = await fs.open(staged!.file, 'r');
    const values = await readRows(handle, staged!, 0, 0, GRID.nj).finally(() => handle.close());
    expect(new Set(values).size).toBe(1);
    expect((await fs.readdir(staging)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it("of one run's store: both finish, and the store is whole", async () => {
    const staging = join(dir, 'staging');
    for (const h of [0, 1, 2]) await stageStep(staging, step(h, 10 + h), null);
    const steps = await stagedSteps(staging);
    const store = join(dir, 'runs', '2026120300.zarr');
    await fs.mkdir(join(dir, 'runs'));
    const write = () => writeRunStore(store, steps, { runMs: RUN, attributes: { product: 'test' } });
    const results = await Promise.allSettled([write(), write()]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual(['fulfilled', 'fulfilled']);
    const metadata = JSON.parse(await fs.readFile(join(store, '.zmetadata'), 'utf8')) as { metadata: Record<string, unknown> };
    expect(Object.keys(metadata.metadata)).toContain('air_temperature/.zarray');
    expect((await fs.readdir(join(dir, 'runs'))).sort()).toEqual(['2026120300.zarr']);
  });
});

describe('a write that fails (the disk full)', () => {
  it('leaves neither the step nor its temporary file', async () => {
    const staging = join(dir, 'staging');
    const failing = step(0, 1);
    const values = failing.fields[0]!.values;
    // The values' bytes cannot be had once the header is written, as a write of them would fail with ENOSPC.
    failing.fields[0]!.values = new Proxy(values, {
      get: (target, key) => {
        if (key === 'buffer') throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(stageStep(staging, failing, null)).rejects.toThrow(/ENOSPC/);
    expect(await fs.readdir(staging)).toEqual([]);
    expect(await stagedSteps(staging)).toEqual([]);
  });
});

describe("a staging directory's name", () => {
  it('is read on the proleptic Gregorian calendar, a year 0000 to 0099 as itself', () => {
    expect(runOfStamp(runStamp(RUN))).toBe(RUN);
    const year50 = new Date(0);
    year50.setUTCFullYear(50, 0, 1);
    year50.setUTCHours(6);
    expect(runStamp(year50.getTime())).toBe('0050010106');
    expect(runOfStamp('0050010106')).toBe(year50.getTime());
  });

  it('names no run when no calendar time has its fields, rather than the time they roll over to', async () => {
    // Date.UTC reads these as 2027-01-01, 2026-03-02 and 2026-12-04.
    for (const name of ['2026130100', '2026023000', '2026120324', '2026000100']) expect(runOfStamp(name)).toBeNaN();
    await stageStep(join(dir, 'staging', '2026023000'), step(0, 280), null);
    await stageStep(join(dir, 'staging', runStamp(RUN)), step(0, 280), null);
    expect(await stagingDirs(dir)).toEqual([{ initMs: RUN, dir: join(dir, 'staging', runStamp(RUN)) }]);
  });
});
