/**
 * Puts a decoded grid into the store's orientation:
 * - latitude ascending: files written north to south (most GeoTIFFs, ERA5) are flipped, as
 *   GridSpec places point i at lat0 + i*dLat with dLat > 0;
 * - longitude in -180..180: a 0..360 grid is shifted (and, when global, its columns rotated)
 *   so both kinds of file answer the same query; a grid that would then straddle the
 *   antimeridian keeps 0..360, which ZarrSource accepts by moving queries a whole turn;
 * - both axes regularly spaced and the time axis regular (GridSource answers start + i*step).
 *
 * Nothing is reordered here in bulk: each variable's block reader is wrapped so that a block
 * asked for in store order (rows south to north, columns west to east) is read from the
 * matching runs of source rows and columns and reordered on the way.
 */
import { regularAxis } from '../zarr/cf-time.js';
import type { BlockReader, DecodedGrid, SourceVariable } from './cf-dataset.js';
import { IngestError } from './errors.js';

export interface NormalisedGrid extends DecodedGrid {
  startMs: number;
  stepMs: number;
  /** number of time steps (0 when no variable has a time axis) */
  nt: number;
}

function checkRegular(name: string, values: number[]): void {
  if (values.length < 2) return;
  const step = (values[values.length - 1]! - values[0]!) / (values.length - 1);
  for (let i = 1; i < values.length; i++) {
    if (Math.abs(values[i]! - (values[0]! + i * step)) > Math.abs(step) * 1e-4) {
      throw new IngestError(`${name} is not regularly spaced (e.g. a Gaussian grid); regrid to a regular latitude/longitude grid first`);
    }
  }
  if (step === 0) throw new IngestError(`${name} has repeated values`);
}

export interface SourceRun {
  /** offset of the run's first store index from the start of the range */
  at: number;
  length: number;
  /** source index of the run's first store index */
  first: number;
  /** +1 when source indices ascend along the run, -1 when they descend */
  dir: 1 | -1;
}

/** Maximal runs of consecutive source indices (ascending or descending) along a store range. */
export function sourceRuns(from: number, count: number, sourceOf: (i: number) => number): SourceRun[] {
  const runs: SourceRun[] = [];
  let run: SourceRun | undefined;
  for (let k = 0; k < count; k++) {
    const s = sourceOf(from + k);
    if (run) {
      const step = s - (run.first + run.dir * (run.length - 1));
      if (run.length === 1 && (step === 1 || step === -1)) {
        run.dir = step;
        run.length = 2;
        continue;
      }
      if (run.length > 1 && step === run.dir) {
        run.length++;
        continue;
      }
    }
    run = { at: k, length: 1, first: s, dir: 1 };
    runs.push(run);
  }
  return runs;
}

/**
 * A block reader in store orientation over one in source orientation: every pair of row run
 * and column run is one source read, copied (reversed where the run descends) into place.
 */
function reorientedReader(read: BlockReader, rowOf: (i: number) => number, colOf: (j: number) => number): BlockReader {
  return async (t0, nt, i0, ni, j0, nj) => {
    const out = new Float32Array(nt * ni * nj);
    for (const rr of sourceRuns(i0, ni, rowOf)) {
      const r0 = rr.dir === 1 ? rr.first : rr.first - rr.length + 1;
      for (const cr of sourceRuns(j0, nj, colOf)) {
        const c0 = cr.dir === 1 ? cr.first : cr.first - cr.length + 1;
        const block = await read(t0, nt, r0, rr.length, c0, cr.length);
        for (let t = 0; t < nt; t++) {
          for (let a = 0; a < rr.length; a++) {
            const src = (t * rr.length + (rr.dir === 1 ? a : rr.length - 1 - a)) * cr.length;
            const dst = (t * ni + rr.at + a) * nj + cr.at;
            if (cr.dir === 1) out.set(block.subarray(src, src + cr.length), dst);
            else for (let b = 0; b < cr.length; b++) out[dst + b] = block[src + cr.length - 1 - b]!;
          }
        }
      }
    }
    return out;
  };
}

export function normaliseGrid(grid: DecodedGrid, stepMsHint?: number): NormalisedGrid {
  const nLat = grid.lats.length;
  const nLon = grid.lons.length;
  checkRegular('latitude', grid.lats);
  checkRegular('longitude', grid.lons);

  let lats = grid.lats.slice();
  const latDescending = nLat > 1 && lats[1]! < lats[0]!;
  if (latDescending) lats.reverse();

  let lons = grid.lons.slice();
  const lonDescending = nLon > 1 && lons[1]! < lons[0]!;
  if (lonDescending) lons.reverse();
  let rotate = 0;
  if (lons.some((x) => x > 180)) {
    const shifted = lons.map((x) => (x > 180 ? x - 360 : x));
    let k = 0;
    for (let j = 1; j < nLon; j++) if (shifted[j]! < shifted[k]!) k = j;
    const rotated = [...shifted.slice(k), ...shifted.slice(0, k)];
    // Rotated, the columns must still be evenly spaced: a regional grid across the antimeridian
    // (150..230) would come out ascending but with a gap (-179.5..-130, 150..180).
    const step = nLon > 1 ? lons[1]! - lons[0]! : 0;
    const regular = rotated.every((x, j) => j === 0 || Math.abs(x - rotated[j - 1]! - step) <= Math.abs(step) * 1e-4);
    if (regular) {
      lons = rotated;
      rotate = k;
    }
  }

  let variables: SourceVariable[] = grid.variables;
  if (latDescending || lonDescending || rotate !== 0) {
    const rowOf = (i: number) => (latDescending ? nLat - 1 - i : i);
    const colOf = (j: number) => {
      const c = (j + rotate) % nLon;
      return lonDescending ? nLon - 1 - c : c;
    };
    variables = variables.map((v) => ({ ...v, read: reorientedReader(v.read, rowOf, colOf) }));
  }
  // Values like 0.1 * i come back as 0.30000000000000004; snap to the nearest micro-degree
  // only when that is what the source meant (within float32 precision of the source value).
  lats = lats.map(snap);
  lons = lons.map(snap);

  let startMs = 0;
  let stepMs = 0;
  if (grid.times) {
    const axis = regularAxis(grid.times);
    if (!axis) throw new IngestError(`time axis is not regular: ${irregularity(grid.times)}; GridSource needs evenly spaced time steps`);
    startMs = axis.startMs;
    stepMs = grid.times.length > 1 ? axis.stepMs : (stepMsHint ?? 0);
  }
  return { ...grid, lats, lons, variables, startMs, stepMs, nt: grid.times?.length ?? 0 };
}

/** The first step of an irregular time axis that breaks the pattern (a gap, a duplicate, a step back). */
function irregularity(times: readonly number[]): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const step = times[1]! - times[0]!;
  if (step <= 0) return `${iso(times[1]!)} follows ${iso(times[0]!)}, times must increase`;
  for (let i = 2; i < times.length; i++) {
    if (Math.abs(times[i]! - times[i - 1]! - step) > 1) {
      return `${iso(times[i]!)} follows ${iso(times[i - 1]!)}, not ${step / 3_600_000} h after it`;
    }
  }
  return `its steps drift from the first, ${step / 3_600_000} h`;
}

function snap(x: number): number {
  const r = Math.round(x * 1e6) / 1e6;
  return Math.abs(r - x) <= Math.abs(x) * 1e-7 + 1e-9 ? r : x;
}
