/**
 * Peak memory of `fieldcast ingest` against the size of the file
 * (docs/decisions/0016-ingest.md). Figures are ratios: the ingest's peak resident set
 * above a baseline process that ingests a tiny file of the same kind (same modules, h5wasm's
 * WebAssembly heap, zarrita), divided by the file's size. With slabs the ratio should fall as files grow (memory is a few
 * slabs); a single slab per variable (a whole-variable ingest) stays at a multiple of 1.
 *
 *   cd /work/main && npx -y pnpm@10 exec tsx bench/ingest.bench.ts
 *
 * Files: NetCDF-4 written here through h5wasm, one float32 variable [time, lat, lon] on a
 * 128 x 128 grid, hourly, chunked one time step per HDF5 chunk (the common layout of archives,
 * and the worst for reading a Zarr chunk's long time series). Each ingest runs in its own
 * process so peaks do not mix. Environment: INGEST_BENCH_DAYS=30,120 sets the file lengths.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeNetcdf4ByStep } from '../packages/weather/test/ingest-fixtures.js';

const here = fileURLToPath(import.meta.url);
const NY = 128;
const NX = 128;

/** A NetCDF-4 file of `nt` hourly steps, written a time step at a time (never whole in memory). */
async function writeFile(file: string, nt: number): Promise<void> {
  await writeNetcdf4ByStep(
    file,
    {
      lats: Array.from({ length: NY }, (_, i) => 60 - i * 0.25),
      lons: Array.from({ length: NX }, (_, j) => j * 0.25),
      times: Array.from({ length: nt }, (_, t) => t),
      timeUnits: 'hours since 2020-01-01 00:00:00',
    },
    {
      name: 'tas',
      attrs: { units: 'K', standard_name: 'air_temperature' },
      step: (t) => Float32Array.from({ length: NY * NX }, (_, k) => 270 + ((t * 7 + k) % 400) * 0.125),
    },
  );
}

/** Child: ingest the file and report the peak RSS. */
async function child(file: string, outDir: string, slabBytes: number): Promise<void> {
  const { ingestFile } = await import('../packages/weather/src/stores.js');
  const slabs = (await ingestFile(file, { outDir, slabBytes, overwrite: true })).slabs.count;

  process.stdout.write(JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024, slabs }));
}

function measure(file: string, outDir: string, slabBytes: number): { maxRssBytes: number; slabs: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', here, 'child', file, outDir, String(slabBytes)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { maxRssBytes: number; slabs: number };
}

async function main(): Promise<void> {
  const days = (process.env.INGEST_BENCH_DAYS ?? '30,120').split(',').map(Number);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-ingest-bench-'));
  const MiB = 2 ** 20;
  try {
    const modes: Array<[string, number]> = [
      ['slabs of 32 MiB (default)', 32 * MiB],
      ['slabs of 4 MiB', 4 * MiB],
      ['one slab per variable (as before)', Number.MAX_SAFE_INTEGER],
    ];
    const tiny = path.join(tmp, 'tiny.nc');
    await writeFile(tiny, 1);
    const baseline = Math.min(...[0, 1, 2].map(() => measure(tiny, tmp, 32 * MiB).maxRssBytes));
    console.log(`baseline: peak RSS of ingesting one step of ${NY} x ${NX}: ${(baseline / MiB).toFixed(0)} MiB`);
    console.log('| file | mode | slabs | (peak RSS - baseline) / file size |');
    console.log('|---|---|---|---|');
    for (const d of days) {
      const file = path.join(tmp, `tas-${d}d.nc`);
      await writeFile(file, d * 24);
      const size = (await fs.stat(file)).size;
      for (const [label, slabBytes] of modes) {
        const m = measure(file, tmp, slabBytes);
        console.log(
          `| ${d * 24} h x ${NY} x ${NX} float32 (${(size / MiB).toFixed(0)} MiB) | ${label} | ${m.slabs} | ${((m.maxRssBytes - baseline) / size).toFixed(2)} |`,
        );
      }
      await fs.rm(file);
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'child') {
  await child(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
} else {
  await main();
}
