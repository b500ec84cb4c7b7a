/**
 * A rectilinear block of grid cells (rows of latitudes x columns of longitudes, row-major) with
 * the per-cell geography and per-column terms every variable needs, computed once per request so
 * the inner loops over time only read typed arrays.
 *
 * The geography is an input: every variable reads the surface through `Block`, never through the
 * terrain noise directly, so a real geography (altitude, later land/sea and distance to the
 * coast) can replace the procedural one by passing another `Geography`.
 */
import { terrainAltitude } from './terrain.js';

/** The static surface of the cells of a block, row-major. */
export interface CellGeography {
  /** surface altitude, m */
  altitude: Float32Array;
}

/** The static surface at the cells of rows `lats` x columns `lons`. */
export type Geography = (lats: Float64Array, lons: Float64Array) => CellGeography;

/** The synthetic world's procedural surface (terrain.ts). */
const proceduralGeography: Geography = (lats, lons) => ({ altitude: terrainAltitude(lats, lons) });

export interface Block extends CellGeography {
  lats: Float64Array;
  lons: Float64Array;
  nRows: number;
  nCols: number;
  nCells: number;
  /** local mean solar time minus UTC, hours, per column (lon / 15) */
  offsetHours: Float64Array;
}

export function makeBlock(lats: Float64Array, lons: Float64Array, geography: Geography = proceduralGeography): Block {
  const offsetHours = new Float64Array(lons.length);
  for (let c = 0; c < lons.length; c++) offsetHours[c] = lons[c]! / 15;
  return { ...geography(lats, lons), lats, lons, nRows: lats.length, nCols: lons.length, nCells: lats.length * lons.length, offsetHours };
}
