/**
 * A rectilinear block of grid cells (rows of latitudes x columns of longitudes, row-major) with
 * the per-cell geography and per-column terms every variable needs, computed once per request so
 * the inner loops over time only read typed arrays.
 *
 * The geography is an input: every variable reads the surface and its climate through `Block`,
 * never through the geography package directly, so tests can pass another `Geography`.
 */
import type { CellList } from './cells.js';
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

/** The static surface at the cells of rows `lats` x columns `lons` (or the listed ones). */
export type Geography = (lats: Float64Array, lons: Float64Array, cells: CellList) => CellGeography;

/** Earth's surface and the climate it sets (terrain.ts, geoclimate.ts). */
const earthGeography: Geography = (lats, lons, cells) => {
  const { mean, ...cycles } = cellClimate(lats, lons, undefined, cells);
  return { ...earthSurface(lats, lons, cells), climateMean: mean, ...cycles };
};

export interface Block extends CellGeography {
  lats: Float64Array;
  lons: Float64Array;
  nRows: number;
  nCols: number;
  nCells: number;
  /** local mean solar time minus UTC, hours, per column (lon / 15) */
  offsetHours: Float64Array;
  /** the block's cells: every row x column (null), or a list (CellList) */
  cells: CellList;
}

export function makeBlock(lats: Float64Array, lons: Float64Array, geography: Geography = earthGeography): Block {
  const offsetHours = new Float64Array(lons.length);
  for (let c = 0; c < lons.length; c++) offsetHours[c] = lons[c]! / 15;
  return {
    ...geography(lats, lons, null),
    lats,
    lons,
    nRows: lats.length,
    nCols: lons.length,
    nCells: lats.length * lons.length,
    offsetHours,
    cells: null,
  };
}

/**
 * A block of the cells at (cellLats[k], cellLons[k]), k = 0, 1, ..., in that order: scattered
 * places computed together. Its rows and columns are the distinct latitudes and longitudes, so
 * terms of a row or a column are still computed once for all the cells on it.
 */
export function makeCellBlock(cellLats: Float64Array, cellLons: Float64Array, geography: Geography = earthGeography): Block {
  const axis = (values: Float64Array) => {
    const index = new Map<number, number>();
    const at = new Int32Array(values.length);
    const distinct: number[] = [];
    values.forEach((v, k) => {
      let i = index.get(v);
      if (i === undefined) index.set(v, (i = distinct.push(v) - 1));
      at[k] = i;
    });
    return { values: Float64Array.from(distinct), at };
  };
  const rows = axis(cellLats),
    cols = axis(cellLons);
  const cells = { row: rows.at, col: cols.at };
  const offsetHours = Float64Array.from(cols.values, (lon) => lon / 15);
  return {
    ...geography(rows.values, cols.values, cells),
    lats: rows.values,
    lons: cols.values,
    nRows: rows.values.length,
    nCols: cols.values.length,
    nCells: cellLats.length,
    offsetHours,
    cells,
  };
}
