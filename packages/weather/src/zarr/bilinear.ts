/**
 * Bilinear interpolation of a point series between the four cell centres around the point: the
 * cells and their weights (the stencil), and the weighted mix of their series.
 */
import { type GridSpec, isGlobalLon, placeOfPoint, withinCells } from '../grid/grid-source.js';
import { lonInGrid } from './grid-indices.js';

/** A cell (i, j) and its weight. */
export type StencilCell = [number, number, number];

/**
 * The cells whose series mix into the point's, with their weights; null when the point is
 * outside the grid. Cell centres are the grid points; a point within half a cell of the
 * outermost centres belongs to that edge cell and takes its value (withinCells: no extrapolation
 * beyond it). The point is read at its place's coordinates (placeOfPoint: a pole at longitude 0).
 */
export function bilinearStencil(grid: GridSpec, pointLon: number, pointLat: number): StencilCell[] | null {
  const { lon, lat } = placeOfPoint(pointLon, pointLat);
  const { lat0, dLat, nLat, lon0, dLon, nLon } = grid;
  const fi = (lat - lat0) / dLat;
  const fj = (lonInGrid(grid, lon) - lon0) / dLon;
  const global = isGlobalLon(grid);
  if (!withinCells(fi, nLat) || (!global && !withinCells(fj, nLon))) return null;
  const ci = Math.min(Math.max(fi, 0), nLat - 1);
  const i0 = Math.floor(ci);
  const wi = ci - i0;
  let j0: number;
  let wj: number;
  let j1: number;
  if (global) {
    const cj = ((fj % nLon) + nLon) % nLon;
    j0 = Math.floor(cj);
    wj = cj - j0;
    j1 = (j0 + 1) % nLon;
  } else {
    const cj = Math.min(Math.max(fj, 0), nLon - 1);
    j0 = Math.floor(cj);
    wj = cj - j0;
    j1 = Math.min(j0 + 1, nLon - 1);
  }
  const i1 = Math.min(i0 + 1, nLat - 1);
  // Neighbours with zero weight are not read: a point on a grid line reads two series, a
  // point on a grid node one.
  const stencil: StencilCell[] = [
    [i0, j0, (1 - wi) * (1 - wj)],
    [i0, j1, (1 - wi) * wj],
    [i1, j0, wi * (1 - wj)],
    [i1, j1, wi * wj],
  ];
  return stencil.filter(([, , w]) => w > 0);
}

/**
 * The one cell of a stencil nearest the point: the last of greatest weight, which rounds a point
 * half-way between cells up on each axis, as the tiles' nearest grid point does. A code
 * (isCategorical) is read there, never mixed.
 */
export function nearestCell(stencil: readonly StencilCell[]): StencilCell {
  let best = stencil[0]!;
  for (const cell of stencil) if (cell[2] >= best[2]) best = cell;
  return [best[0], best[1], 1];
}

/**
 * values[t] = sum of w[k] series[k][t] / sum of w[k]: bilinear interpolation. Missing neighbours
 * drop out and the remaining weights are renormalised, so a coastal point next to a masked cell
 * still gets a value. The weights are divided by their sum once, not per step; the common case
 * runs as one unrolled pass until a step with a missing value, which the general loop finishes.
 */
export function interpolate(series: Float32Array[], w: number[], values: Float32Array): void {
  const n = series.length;
  let wTotal = 0;
  for (let k = 0; k < n; k++) wTotal += w[k]!;
  const a = series[0]!,
    b = series[1]!,
    c = series[2] ?? a,
    d = series[3] ?? a;
  const wa = w[0]! / wTotal,
    wb = w[1]! / wTotal,
    wc = n > 2 ? w[2]! / wTotal : 0,
    wd = n > 3 ? w[3]! / wTotal : 0;
  const nt = values.length;
  let t = 0;
  for (; t < nt; t++) {
    const sum = wa * a[t]! + wb * b[t]! + wc * c[t]! + wd * d[t]!;
    if (sum !== sum) break;
    values[t] = sum;
  }
  for (; t < nt; t++) {
    let s = 0;
    let ws = 0;
    for (let k = 0; k < n; k++) {
      const v = series[k]![t]!;
      if (Number.isNaN(v)) continue;
      s += w[k]! * v;
      ws += w[k]!;
    }
    values[t] = ws > 0 ? s / ws : NaN;
  }
}
