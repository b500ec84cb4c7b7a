/**
 * Puts a decoded grid into the store's orientation:
 * - latitude ascending: files written north to south (most GeoTIFFs, ERA5) are flipped, as
 *   GridSpec places point i at lat0 + i*dLat with dLat > 0;
 * - longitude in -180..180: a 0..360 grid is shifted (and, when global, its columns rotated)
 *   so both kinds of file answer the same query; a grid that would then straddle the
 *   antimeridian keeps 0..360, which ZarrSource accepts by moving queries a whole turn;
 * - both axes regularly spaced and the time axis regular (GridSource answers start + i*step).
 */
import { regularAxis } from '../zarr/cf-time.js';
import type { DecodedGrid, SourceVariable } from './cf-dataset.js';
import { IngestError } from './errors.js';

export interface NormalisedGrid extends DecodedGrid {
  startMs: number;
  stepMs: number;
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

/** Reorders the columns and rows of every [t][lat][lon] plane. */
function remap(v: SourceVariable, nLat: number, nLon: number, rowOf: (i: number) => number, colOf: (j: number) => number): SourceVariable {
  const plane = nLat * nLon;
  const nt = v.data.length / plane;
  const out = new Float32Array(v.data.length);
  for (let t = 0; t < nt; t++) {
    for (let i = 0; i < nLat; i++) {
      const src = t * plane + rowOf(i) * nLon;
      const dst = t * plane + i * nLon;
      for (let j = 0; j < nLon; j++) out[dst + j] = v.data[src + colOf(j)]!;
    }
  }
  return { ...v, data: out };
}

export function normaliseGrid(grid: DecodedGrid, stepMsHint?: number): NormalisedGrid {
  const nLat = grid.lats.length;
  const nLon = grid.lons.length;
  checkRegular('latitude', grid.lats);
  checkRegular('longitude', grid.lons);
  for (const v of grid.variables) {
    const plane = nLat * nLon;
    const nt = v.hasTime ? (grid.times?.length ?? 0) : 1;
    if (v.data.length !== nt * plane) throw new IngestError(`${v.name} has ${v.data.length} values, expected ${nt} x ${nLat} x ${nLon}`);
  }

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
    const ascending = rotated.every((x, j) => j === 0 || x > rotated[j - 1]!);
    if (ascending) {
      lons = rotated;
      rotate = k;
    }
  }

  let variables = grid.variables;
  if (latDescending || lonDescending || rotate !== 0) {
    const rowOf = (i: number) => (latDescending ? nLat - 1 - i : i);
    const colOf = (j: number) => {
      const c = (j + rotate) % nLon;
      return lonDescending ? nLon - 1 - c : c;
    };
    variables = variables.map((v) => remap(v, nLat, nLon, rowOf, colOf));
  }
  // Values like 0.1 * i come back as 0.30000000000000004; snap to the nearest micro-degree
  // only when that is what the source meant (within float32 precision of the source value).
  lats = lats.map(snap);
  lons = lons.map(snap);

  let startMs = 0;
  let stepMs = 0;
  if (grid.times) {
    const axis = regularAxis(grid.times);
    if (!axis) throw new IngestError('time axis is not regular; GridSource needs evenly spaced time steps');
    startMs = axis.startMs;
    stepMs = grid.times.length > 1 ? axis.stepMs : (stepMsHint ?? 0);
  }
  return { ...grid, lats, lons, variables, startMs, stepMs };
}

function snap(x: number): number {
  const r = Math.round(x * 1e6) / 1e6;
  return Math.abs(r - x) <= Math.abs(x) * 1e-7 + 1e-9 ? r : x;
}
