/**
 * A rectilinear block of grid cells (rows of latitudes x columns of longitudes, row-major) with
 * the per-cell and per-column terms every field needs, computed once per request so the inner
 * loops over time only read typed arrays.
 */
import { blockAltitude } from './terrain.js';

export interface Block {
  lats: Float64Array;
  lons: Float64Array;
  nRows: number;
  nCols: number;
  nCells: number;
  /** surface altitude, m, per cell */
  altitude: Float32Array;
  /** local mean solar time minus UTC, hours, per column (lon / 15) */
  offsetHours: Float64Array;
}

export function makeBlock(lats: Float64Array, lons: Float64Array): Block {
  const offsetHours = new Float64Array(lons.length);
  for (let c = 0; c < lons.length; c++) offsetHours[c] = (lons[c] as number) / 15;
  return {
    lats,
    lons,
    nRows: lats.length,
    nCols: lons.length,
    nCells: lats.length * lons.length,
    altitude: blockAltitude(lats, lons),
    offsetHours,
  };
}
