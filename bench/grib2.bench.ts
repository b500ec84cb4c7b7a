/**
 * GRIB2 decoding (issue 32 item 1; docs/decisions/0220-grib2-decoding.md). Run:
 *   npx -y pnpm@10 exec tsx bench/grib2.bench.ts
 * One 0.25° global message (1440 x 721 = 1,038,240 values, a temperature-like analytic field,
 * 16 bits) per packing, written by ecCodes (tests/integration/grib2_eccodes.py; the spatial
 * differencing one with order 2, as GFS writes it, packed by that script), decoded by
 * @fieldcast/grib2's `decodeField` and by python3-eccodes' `codes_get_values` on the same
 * message in the same run. The two alternate in rounds (ecCodes' runs, then ours), so that load
 * from other jobs falls on both; a round's figure is our median time / ecCodes' median time, and
 * the figure printed is the median of the rounds'. Target ≤ 3 each.
 * Needs ecCodes (Debian: libeccodes-tools python3-eccodes); GRIB2_BENCH_RUNS sets the runs per
 * round (default 11), GRIB2_BENCH_ROUNDS the rounds (default 3).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeField, readFields } from '../packages/grib2/src/index.js';

const RUNS = Number(process.env.GRIB2_BENCH_RUNS ?? 11);
const ROUNDS = Number(process.env.GRIB2_BENCH_ROUNDS ?? 3);
const SCRIPT = join(import.meta.dirname, '../tests/integration/grib2_eccodes.py');
const PYTHON = process.env.FIELDCAST_PYTHON ?? '/usr/bin/python3';
const GRID = { ni: 1440, nj: 721, lat1: 90, lon1: 0, dlat: 0.25, dlon: 0.25, bits: 16 };
const PACKINGS = [
  { packing: 'grid_simple' },
  { packing: 'grid_complex' },
  { packing: 'grid_complex_spatial_differencing', spatialOrder: 2 },
  { packing: 'grid_jpeg' },
  { packing: 'grid_png' },
  { packing: 'grid_ccsds' },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'grib2-bench-'));
  try {
    const file = join(dir, 'global.grib2');
    execFileSync(PYTHON, [SCRIPT, 'make', file, JSON.stringify(PACKINGS.map((p) => ({ ...GRID, ...p })))]);
    const fields = readFields(readFileSync(file));
    // Compiles the WebAssembly module and lets the JIT settle, as in a sync that decodes message after message.
    for (let warm = 0; warm < 3; warm++) for (const field of fields) await decodeField(field);
    const ratios: number[][] = fields.map(() => []);
    const last: Array<{ ours: number; theirs: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const eccodes = JSON.parse(execFileSync(PYTHON, [SCRIPT, 'time', file, String(RUNS)], { encoding: 'utf8' })) as Array<{
        seconds: number;
      }>;
      for (const [k, field] of fields.entries()) {
        const runs: number[] = [];
        for (let r = 0; r < RUNS; r++) {
          const t = performance.now();
          await decodeField(field);
          runs.push((performance.now() - t) / 1000);
        }
        last[k] = { ours: median(runs), theirs: eccodes[k]!.seconds };
        ratios[k]!.push(last[k].ours / last[k].theirs);
      }
    }
    let worst = 0;
    for (const [k, packing] of PACKINGS.entries()) {
      const ratio = median(ratios[k]!);
      worst = Math.max(worst, ratio);
      const name = `${packing.packing}${packing.spatialOrder ? ` (order ${packing.spatialOrder})` : ''}`;
      const { ours, theirs } = last[k]!;
      console.log(
        `${name.padEnd(46)} ratio ${ratio.toFixed(2).padStart(6)}  ${ratio <= 3 ? 'PASS' : 'FAIL'}   (last round: ours ${(ours * 1000).toFixed(1)} ms, ecCodes ${(theirs * 1000).toFixed(1)} ms)`,
      );
    }
    console.log(`worst ratio ${worst.toFixed(2)} (target ≤ 3)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
