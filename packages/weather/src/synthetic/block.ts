/**
 * A rectilinear block of grid cells (rows of latitudes x columns of longitudes, row-major) with
 * the per-cell geography and per-column terms every variable needs, computed once per request so
 * the inner loops over time only read typed arrays.
 *
 * The geography is an input: every variable reads the surface and its climate through `Block`,
 * never through the geography package directly, so tests can pass another `Geography`.
 */
import { cellClimate } from './geoclimate.js';
import { earthSurface } from './terrain.js';

/** The static surface of the cells of a block, row-major. */
export interface CellGeography {
  /** surface altitude, m */
  altitude: Float32Array;
  /** land share, 0..1 */
  land: Float32Array;
  /** signed distance to the coast, km (positive on land) */
  coastKm: Float32Array;
  /** annual mean temperature at sea level, degC (geoclimate.ts) */
  climateMean: Float32Array;
  /** the annual cycle as amplitude x cos and sin of its peak phase, K (geoclimate.ts) */
  seasonCos: Float32Array;
  seasonSin: Float32Array;
  /** the cloud field's geographic bias: a static shift and a monsoon cycle (geoclimate.ts `cloudBiasAt`) */
  cloudShift: Float32Array;
  monsoonCos: Float32Array;
  monsoonSin: Float32Array;
  /** the monthly precipitation climate (geoclimate.ts `precipitationClimateAt`) */
  precipLog: Float32Array;
  precipCos: Float32Array;
  precipSin: Float32Array;
}

/** The static surface at the cells of rows `lats` x columns `lons`. */
export type Geography = (lats: Float64Array, lons: Float64Array) => CellGeography;

/** Earth's surface and the climate it sets (terrain.ts, geoclimate.ts). */
const earthGeography: Geography = (lats, lons) => {
  const { mean, ...cycles } = cellClimate(lats, lons);
  return { ...earthSurface(lats, lons), climateMean: mean, ...cycles };
};

export interface Block extends CellGeography {
  lats: Float64Array;
  lons: Float64Array;
  nRows: number;
  nCols: number;
  nCells: number;
  /** local mean solar time minus UTC, hours, per column (lon / 15) */
  offsetHours: Float64Array;
}

export function makeBlock(lats: Float64Array, lons: Float64Array, geography: Geography = earthGeography): Block {
  const offsetHours = new Float64Array(lons.length);
  for (let c = 0; c < lons.length; c++) offsetHours[c] = lons[c]! / 15;
  return { ...geography(lats, lons), lats, lons, nRows: lats.length, nCols: lons.length, nCells: lats.length * lons.length, offsetHours };
}
