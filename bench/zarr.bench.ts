/**
 * Zarr point-series reads against a raw fs.read of the same float32 bytes. Every figure is a
 * ratio to a baseline measured in this run; absolute times are printed only to show what the
 * ratios are made of.
 *
 *   cd /work/main && npx -y pnpm@10 exec tsx bench/zarr.bench.ts
 *
 * Same bytes on both sides: a read at a grid node needs one series per variable and is
 * compared with one fs.read per variable; a read between nodes (bilinear) needs the four
 * neighbour series and is compared with four fs.reads per variable. The raw reads run with the
 * same concurrency as ZarrSource's (all variables and neighbours at once) from a file opened
 * once, and the flat file holds each cell's series contiguously: the best case for fs.read.
 *
 * Environment: ZARR_BENCH_CHUNK=<n> sets the spatial chunk side (default: the store layout's),
 * ZARR_BENCH_COMPRESSOR=zstd|none the compressor (default: the writer's, none),
 * ZARR_BENCH_ITERATIONS the reads per figure.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GridSource, TimeRange, VariableId } from '../packages/weather/src/grid/grid-source.js';
import { GridStoreWriter, ZarrSource, defaultChunks } from '../packages/weather/src/stores.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CELLS = 16; // a few grid cells wide: 2 x 2 chunks of 8
const LAT0 = 40;
const LON0 = -100;
const D = 0.25;

interface Case {
  name: string;
  variables: VariableId[];
  range: TimeRange;
  stepMs: number;
}

const CASES: Case[] = [
  {
    name: '10-year daily Tmax+Tmin',
    variables: ['air_temperature_daily_max', 'air_temperature_daily_min'],
    range: { startMs: Date.UTC(2015, 0, 1), endMs: Date.UTC(2024, 11, 31) },
    stepMs: DAY,
  },
  {
    name: '1-year hourly ET inputs (5)',
    variables: [
      'air_temperature',
      'dew_point_temperature',
      'surface_downwelling_shortwave_flux_in_air',
      'wind_speed',
      'surface_air_pressure',
    ],
    range: { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 11, 31, 23) },
    stepMs: HOUR,
  },
];

/** Plausible, not constant, values: a seasonal and daily cycle plus hashed noise per cell. */
function fill(nt: number, stepMs: number, startMs: number, v: number): Float32Array {
  const out = new Float32Array(nt * CELLS * CELLS);
  for (let t = 0; t < nt; t++) {
    const ms = startMs + t * stepMs;
    const season = Math.sin((2 * Math.PI * ms) / (365.25 * DAY));
    const daily = Math.sin((2 * Math.PI * ms) / DAY);
    for (let c = 0; c < CELLS * CELLS; c++) {
      const h = Math.sin((t * 131 + c * 977 + v * 7919) * 12.9898) * 43758.5453;
      out[t * CELLS * CELLS + c] = 15 + 10 * season + 4 * daily + c * 0.01 + 2 * (h - Math.floor(h));
    }
  }
  return out;
}

/** Raw baseline file: per variable, per cell, the whole time series contiguous. */
async function writeRaw(file: string, series: Float32Array[], nt: number): Promise<void> {
  const out = new Float32Array(series.length * CELLS * CELLS * nt);
  series.forEach((data, v) => {
    for (let c = 0; c < CELLS * CELLS; c++)
      for (let t = 0; t < nt; t++) out[(v * CELLS * CELLS + c) * nt + t] = data[t * CELLS * CELLS + c]!;
  });
  await fs.writeFile(file, out);
}

type Reader = { batch: number; read: (k: number) => Promise<unknown> };

/**
 * Mean ms per read of each reader, as the median over rounds of a batch of reads. The readers
 * take turns batch by batch, so load from other processes on this shared machine hits all of
 * them alike instead of whichever happened to run during a burst.
 */
async function timeInterleaved(rounds: number, readers: Record<string, Reader>): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {};
  for (const [name, r] of Object.entries(readers)) {
    samples[name] = [];
    // Warm-up over the bench points until steady state: at least 15 reads and 300 ms per reader,
    // so V8 has optimised the hot loops (a long synthetic pass runs tens of times before its
    // optimised code settles) and the page and chunk caches hold what they will hold. A service
    // runs these reads thousands of times; the bench measures that state for every reader alike.
    const warmUntil = performance.now() + 300;
    for (let k = 0; k < 15 || performance.now() < warmUntil; k++) await r.read(k % 200);
  }
  let k = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [name, r] of Object.entries(readers)) {
      const t0 = process.hrtime.bigint();
      for (let b = 0; b < r.batch; b++) await r.read(k + b);
      samples[name]!.push(Number(process.hrtime.bigint() - t0) / 1e6 / r.batch);
    }
    k += 10;
  }
  const out: Record<string, number> = {};
  for (const [name, xs] of Object.entries(samples)) {
    xs.sort((a, b) => a - b);
    out[name] = xs[Math.floor(xs.length / 2)]!;
  }
  return out;
}

/** Interior points between grid nodes, spread over all four chunks of the store. */
function point(k: number): [number, number] {
  const i = 1 + ((k * 5) % (CELLS - 3));
  const j = 1 + ((k * 7) % (CELLS - 3));
  return [LON0 + (j + 0.37) * D, LAT0 + (i + 0.61) * D];
}

/** Grid nodes (one series per variable), spread the same way. */
function node(k: number): [number, number] {
  const i = 1 + ((k * 5) % (CELLS - 3));
  const j = 1 + ((k * 7) % (CELLS - 3));
  return [LON0 + j * D, LAT0 + i * D];
}

async function main(): Promise<void> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-zarr-bench-'));
  const chunkSide = process.env.ZARR_BENCH_CHUNK ? Number(process.env.ZARR_BENCH_CHUNK) : undefined;
  const iterations = Number(process.env.ZARR_BENCH_ITERATIONS ?? 200);
  console.log(
    `Zarr point-series reads (${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}), ${iterations} reads each, median over interleaved batches of 10 of the mean per read`,
  );
  try {
    for (const c of CASES) {
      const nt = Math.round((c.range.endMs - c.range.startMs) / c.stepMs) + 1;
      const lats = Array.from({ length: CELLS }, (_, i) => LAT0 + i * D);
      const lons = Array.from({ length: CELLS }, (_, j) => LON0 + j * D);
      const dir = path.join(tmp, `${c.stepMs === DAY ? 'daily' : 'hourly'}.zarr`);
      const compressor = process.env.ZARR_BENCH_COMPRESSOR as 'zstd' | 'none' | undefined;
      const w = await GridStoreWriter.create(dir, { lats, lons, ...(compressor ? { compressor } : {}) });
      await w.addTimeAxis({ name: 'time', startMs: c.range.startMs, stepMs: c.stepMs, length: nt });
      const chunks = defaultChunks(nt, c.stepMs, CELLS, CELLS);
      if (chunkSide) chunks.splice(1, 2, chunkSide, chunkSide);
      const series: Float32Array[] = [];
      for (const [v, name] of c.variables.entries()) {
        await w.addVariable({ name, time: 'time', chunks });
        const data = fill(nt, c.stepMs, c.range.startMs, v);
        series.push(data);
        await w.write(name, data);
      }
      await w.close();
      const rawFile = path.join(tmp, `${c.stepMs === DAY ? 'daily' : 'hourly'}.f32`);
      await writeRaw(rawFile, series, nt);
      const fh = await fs.open(rawFile, 'r');
      const bytes = nt * 4;
      const buf = Buffer.alloc(bytes * c.variables.length);
      const buf4 = Buffer.alloc(bytes * 4 * c.variables.length);
      const cellOffset = (v: number, i: number, j: number) => (v * CELLS * CELLS + i * CELLS + j) * nt * 4;

      const cold = await ZarrSource.open(dir, { cacheBytes: 0 });
      const warm = await ZarrSource.open(dir);
      const readAll = (s: GridSource, at: [number, number]) => Promise.all(c.variables.map((v) => s.pointSeries(v, at[0], at[1], c.range)));
      const readers: Record<string, Reader> = {
        // Baseline for a grid node: one fs.read of each variable's series (nt float32).
        raw1: {
          batch: 10,
          read: async (k) => {
            const [lon, lat] = node(k);
            const i = Math.round((lat - LAT0) / D);
            const j = Math.round((lon - LON0) / D);
            await Promise.all(c.variables.map((_, v) => fh.read(buf, v * bytes, bytes, cellOffset(v, i, j))));
          },
        },
        zNode: { batch: 10, read: (k) => readAll(cold, node(k)) },
        // Baseline for a bilinear read: the four neighbour series of each variable.
        raw4: {
          batch: 10,
          read: async (k) => {
            const [lon, lat] = point(k);
            const i = Math.floor((lat - LAT0) / D);
            const j = Math.floor((lon - LON0) / D);
            await Promise.all(
              c.variables.map((_, v) =>
                Promise.all(
                  [
                    [0, 0],
                    [0, 1],
                    [1, 0],
                    [1, 1],
                  ].map(([di, dj], n) => fh.read(buf4, (v * 4 + n) * bytes, bytes, cellOffset(v, i + di!, j + dj!))),
                ),
              ),
            );
          },
        },
        zCold: { batch: 10, read: (k) => readAll(cold, point(k)) },
        zWarm: { batch: 10, read: (k) => readAll(warm, point(k)) },
      };
      const m = await timeInterleaved(Math.max(5, Math.round(iterations / 10)), readers);
      const { raw1, zNode, raw4, zCold, zWarm } = m as Record<'raw1' | 'zNode' | 'raw4' | 'zCold' | 'zWarm', number>;
      await fh.close();
      await Promise.all([cold.close(), warm.close()]);
      const zarrFiles = (await fs.readdir(path.join(dir, c.variables[0]!))).filter((f) => /^\d/.test(f));
      const zarrBytes = (await Promise.all(zarrFiles.map((f) => fs.stat(path.join(dir, c.variables[0]!, f)).then((s) => s.size)))).reduce(
        (a, b) => a + b,
        0,
      );
      const meta = JSON.parse(await fs.readFile(path.join(dir, c.variables[0]!, '.zarray'), 'utf8')) as {
        order: string;
        compressor: { id: string } | null;
      };

      console.log(
        `\n${c.name}: ${c.variables.length} x ${nt} float32 = ${((c.variables.length * bytes) / 1024).toFixed(0)} KiB per series read; chunks [${chunks.join(', ')}] order ${meta.order}, ${meta.compressor?.id ?? 'uncompressed'}, ${(zarrBytes / (nt * CELLS * CELLS * 4)).toFixed(2)} stored/raw`,
      );
      console.log('                                              time      ratio');
      console.log(`  grid node: raw fs.read, 1 series/variable   ${raw1.toFixed(3)} ms  1.00`);
      console.log(
        `  grid node: Zarr (1 series/variable)         ${zNode.toFixed(3)} ms  ${(zNode / raw1).toFixed(2)}   Zarr / raw, same bytes`,
      );
      console.log(`  bilinear: raw fs.read, 4 series/variable    ${raw4.toFixed(3)} ms  1.00`);
      console.log(
        `  bilinear: Zarr, chunk cache off (cold)      ${zCold.toFixed(3)} ms  ${(zCold / raw4).toFixed(2)}   Zarr / raw, same bytes`,
      );
      console.log(
        `  bilinear: Zarr, chunk cache on (warm)       ${zWarm.toFixed(3)} ms  ${(zWarm / raw4).toFixed(2)}   Zarr / raw, same bytes`,
      );
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

await main();
