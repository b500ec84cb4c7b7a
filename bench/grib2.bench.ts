/**
 * GRIB2 decoding (docs/decisions/0220-grib2-decoding.md). Run:
 *   npx -y pnpm@10 exec tsx bench/grib2.bench.ts
 * One 0.25° global message (1440 x 721 = 1,038,240 values, a temperature-like analytic field,
 * 16 bits) per packing, written by ecCodes (tests/integration/grib2_eccodes.py; the spatial
 * differencing one with order 2, as GFS writes it, by packages/grib2/test/encode.ts, since
 * Debian 12's ecCodes writes order 0 only), decoded by
 * @fieldcast/grib2's `decodeField` and by python3-eccodes' `codes_get_values` on the same
 * message in the same run. The two alternate in rounds (ecCodes' runs, then ours), so that load
 * from other jobs falls on both; a round's figure is our median time / ecCodes' median time, and
 * the figure printed is the median of the rounds'. Target ≤ 3 each (judged on the reused array, the
 * way a sync decodes; the other is printed beside it). Two figures per packing:
 * `decodeField(field)`, a new array per message; and `decodeField(field, into)`, one array reused
 * from message to message as a sync of many messages of one grid does (ecCodes' numpy array is
 * freed at once and its memory reused by malloc, while a fresh 4 MB Float32Array is left to V8's
 * collector, whose work falls on whichever decode comes next).
 * Needs ecCodes (Debian: libeccodes-tools python3-eccodes); GRIB2_BENCH_RUNS sets the runs per
 * round (default 11), GRIB2_BENCH_ROUNDS the rounds (default 3).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeField, readFields } from '../packages/grib2/src/index.js';
import { encodeMessage, pointsInScanningOrder } from '../packages/grib2/test/encode.js';

const RUNS = Number(process.env.GRIB2_BENCH_RUNS ?? 11);
const ROUNDS = Number(process.env.GRIB2_BENCH_ROUNDS ?? 3);
const SCRIPT = join(import.meta.dirname, '../tests/integration/grib2_eccodes.py');
const PYTHON = process.env.FIELDCAST_PYTHON ?? '/usr/bin/python3';
const GRID = { ni: 1440, nj: 721, lat1: 90, lon1: 0, dlat: 0.25, dlon: 0.25, bits: 16 };
const BY_ECCODES = ['grid_simple', 'grid_complex', 'grid_jpeg', 'grid_png', 'grid_ccsds'];
const NAMES = [...BY_ECCODES, 'grid_complex_spatial_differencing (order 2)'];

/** The same kind of field as grib2_eccodes.py's "temp", packed with spatial differencing of order 2 to 0.01 K. */
function orderTwoMessage(): Uint8Array {
  const grid = { ni: GRID.ni, nj: GRID.nj, lat1: GRID.lat1, lon1: GRID.lon1, dLat: GRID.dlat, dLon: GRID.dlon };
  const { lat, lon } = pointsInScanningOrder(grid);
  const rad = Math.PI / 180;
  const values = Float64Array.from(
    lat,
    (la, k) => 273.15 + 30 * Math.cos(la * rad) + 8 * Math.sin(2 * lon[k]! * rad) * Math.cos(la * rad) + 6,
  );
  return encodeMessage(values, { grid, packing: { template: 3, decimal: 2, order: 2 } });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'grib2-bench-'));
  try {
    const file = join(dir, 'global.grib2');
    execFileSync(PYTHON, [SCRIPT, 'make', file, JSON.stringify(BY_ECCODES.map((packing) => ({ ...GRID, packing })))]);
    appendFileSync(file, orderTwoMessage());
    const fields = readFields(readFileSync(file));
    // Compiles the WebAssembly module and lets the JIT settle, as in a sync that decodes message after message.
    for (let warm = 0; warm < 3; warm++) for (const field of fields) await decodeField(field);
    const ratios = fields.map(() => ({ fresh: [] as number[], reused: [] as number[] }));
    const last: Array<{ fresh: number; reused: number; theirs: number }> = [];
    const into = new Float32Array(GRID.ni * GRID.nj);
    const time = async (decode: () => Promise<unknown>) => {
      const runs: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const t = performance.now();
        await decode();
        runs.push((performance.now() - t) / 1000);
      }
      return median(runs);
    };
    for (let round = 0; round < ROUNDS; round++) {
      const eccodes = JSON.parse(execFileSync(PYTHON, [SCRIPT, 'time', file, String(RUNS)], { encoding: 'utf8' })) as Array<{
        seconds: number;
      }>;
      for (const [k, field] of fields.entries()) {
        const fresh = await time(() => decodeField(field));
        const reused = await time(() => decodeField(field, into));
        last[k] = { fresh, reused, theirs: eccodes[k]!.seconds };
        ratios[k]!.fresh.push(fresh / last[k].theirs);
        ratios[k]!.reused.push(reused / last[k].theirs);
      }
    }
    let worst = 0;
    const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
    console.log(`${'packing'.padEnd(46)} ${'new array'.padStart(10)} ${'reused'.padStart(8)}   last round: new, reused, ecCodes`);
    for (const [k, name] of NAMES.entries()) {
      const fresh = median(ratios[k]!.fresh);
      const reused = median(ratios[k]!.reused);
      worst = Math.max(worst, reused);
      const { fresh: f, reused: r, theirs } = last[k]!;
      console.log(
        `${name.padEnd(46)} ${fresh.toFixed(2).padStart(10)} ${reused.toFixed(2).padStart(8)}   ${ms(f)}, ${ms(r)}, ${ms(theirs)}`,
      );
    }
    console.log(`worst ratio into a reused array ${worst.toFixed(2)}: ${worst <= 3 ? 'PASS' : 'FAIL'} (target ≤ 3)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
