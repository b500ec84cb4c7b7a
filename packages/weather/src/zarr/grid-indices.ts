/**
 * Where a request falls on a store's regular grid and time axis: index ranges of a bbox's cell
 * centres and of a time range, in the store's own longitude domain (-180..180 or 0..360).
 */
import { type BBox, type GridSpec, type TimeRange, withinCells } from '../grid/grid-source.js';
import type { TimeAxis } from './array-reader.js';
import { GridCoverageError } from './coverage-error.js';

/** A time for a message: ISO 8601 where it is a valid time value, else the number. */
export function iso(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
}

/** Time indices [t0, t1] (inclusive) of a range, clamped to the axis; throws when disjoint. */
export function timeIndices(r: { name: string; time: TimeAxis | null }, range: TimeRange): [number, number] {
  if (!r.time) return [0, 0];
  const { startMs, stepMs, length } = r.time;
  if (stepMs <= 0) {
    if (range.startMs <= startMs && startMs <= range.endMs) return [0, 0];
    throw new GridCoverageError('out_of_coverage', `${r.name}: ${iso(range.startMs)}..${iso(range.endMs)} is outside ${iso(startMs)}`);
  }
  const t0 = Math.max(0, Math.ceil((range.startMs - startMs) / stepMs));
  const t1 = Math.min(length - 1, Math.floor((range.endMs - startMs) / stepMs));
  if (t1 < t0) {
    const end = startMs + (length - 1) * stepMs;
    throw new GridCoverageError(
      'out_of_coverage',
      `${r.name}: ${iso(range.startMs)}..${iso(range.endMs)} is outside ${iso(startMs)}..${iso(end)}`,
    );
  }
  return [t0, t1];
}

/** A longitude moved by a whole turn into the grid's own domain (-180..180 or 0..360). */
export function lonInGrid(grid: Pick<GridSpec, 'lon0' | 'dLon' | 'nLon'>, lon: number): number {
  const { lon0, dLon, nLon } = grid;
  for (const candidate of [lon, lon + 360, lon - 360]) {
    if (withinCells((candidate - lon0) / dLon, nLon)) return candidate;
  }
  return lon;
}

/** Index range [a, b) of centres inside [lo, hi] on an axis of n points from c0 by d. */
function centresIn(lo: number, hi: number, c0: number, d: number, n: number): [number, number] {
  const eps = 1e-9 * Math.abs(d);
  const a = Math.max(0, Math.ceil((lo - c0) / d - eps));
  const b = Math.min(n, Math.floor((hi - c0) / d + eps) + 1);
  return [a, Math.max(a, b)];
}

/** Index ranges [i0, i1) and [j0, j1) of the cell centres inside a bbox. */
export function bboxIndices(grid: GridSpec, bbox: BBox): { i: [number, number]; j: [number, number] } {
  const [west, south, east, north] = bbox;
  if (!(west <= east) || !(south <= north)) {
    throw new GridCoverageError('invalid_bbox', `bbox [${bbox.join(', ')}] must have west <= east and south <= north`);
  }
  const { lat0, dLat, nLat, lon0, dLon, nLon } = grid;
  const i = centresIn(south, north, lat0, dLat, nLat);
  // A bbox in -180..180 on a 0..360 grid (or the reverse) is shifted by a whole turn.
  let w = west;
  let e = east;
  const gridEast = lon0 + (nLon - 1) * dLon;
  if (e < lon0 && e + 360 <= gridEast + 360) {
    w += 360;
    e += 360;
  } else if (w > gridEast) {
    w -= 360;
    e -= 360;
  }
  const j = centresIn(w, e, lon0, dLon, nLon);
  return { i, j };
}
