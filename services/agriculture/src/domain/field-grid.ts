import { polygonsBBox, unwrapLongitudes, type CellGrid, type PolygonCoordinates } from '@fieldcast/geo';
import type { DegreeDayQuery } from '@fieldcast/schemas';
import { answeringSource, type BBox, type GridSource, type TimeRange, type VariableId, windowParts } from '@fieldcast/weather';
import { dailyExtremesIn } from './daily-temperatures.js';
import { cellAccumulation, degreeDayRule } from './degree-day-totals.js';
import type { FieldRecord } from './fields.js';

/** Degree-day totals on cell centres, row-major [lat][lon] (a TotalsGrid for contourBands). */
export interface TotalsGrid extends CellGrid {
  values: Float64Array;
  /**
   * With include=daily: each cell's running total at the end of every day, [day][lat][lon], the
   * last day's layer equal to `values` (docs/decisions/0510-field-daily-statistics.md).
   */
  running?: Float64Array;
}

/** Per-cell degree-day totals around a field, with the field's polygons in the same longitude frame. */
export interface FieldGrid {
  /** the field's polygons, moved a turn east where it lies across the antimeridian (unwrapLongitudes) */
  polygons: PolygonCoordinates[];
  /** longitude added to each polygon (0 or 360) */
  shifts: number[];
  /** totals on the cell centres, row-major [lat][lon]; longitudes continuous (may pass ±180) */
  grid: TotalsGrid;
}

/** What a field's grid holds: the totals of the cells whose centres lie in a bbox, read over `range` of `variable`'s grid. */
export interface CellTotalsReader {
  /** the variable whose grid the cells are on */
  variable: VariableId;
  range: TimeRange;
  read(bbox: BBox): Promise<TotalsGrid>;
}

/** Degree-day totals of the cells whose centres lie in bbox (one window read per variable), and their running totals with include=daily. */
export function degreeDayTotals(source: GridSource, days: TimeRange, query: DegreeDayQuery): CellTotalsReader {
  return {
    variable: 'air_temperature_daily_max',
    range: days,
    async read(bbox) {
      const { tmax, tmin } = await dailyExtremesIn(source, bbox, days);
      const { totals, running } = cellAccumulation(tmax, tmin, degreeDayRule(query, tmax.units), query.daily === true);
      return { lats: tmax.lats, lons: tmax.lons, dLat: tmax.dLat, dLon: tmax.dLon, values: totals, ...(running ? { running } : {}) };
    },
  };
}

const sameRows = (a: TotalsGrid, b: TotalsGrid) =>
  a.lats.length === b.lats.length &&
  a.dLon === b.dLon &&
  Array.from(a.lats).every((lat, i) => Math.abs(lat - (b.lats[i] as number)) <= 1e-9 * Math.max(1, Math.abs(lat)));

/**
 * Columns of `extra` (read a turn away, moved by `shift` degrees) put beside `main`, when they
 * continue its cell spacing: a grid that goes round the globe (the synthetic world) continues
 * across ±180; a regional store does not, and then main is returned as it was.
 */
function besides(main: TotalsGrid, extra: TotalsGrid, shift: number): TotalsGrid {
  if (extra.lons.length === 0 || !sameRows(main, extra)) return main;
  const first = main.lons[0] as number,
    last = main.lons[main.lons.length - 1] as number,
    half = main.dLon / 2;
  const keep: number[] = [];
  Array.from(extra.lons).forEach((lon, j) => {
    if (shift > 0 ? lon + shift > last + half : lon + shift < first - half) keep.push(j);
  });
  const added = keep.map((j) => (extra.lons[j] as number) + shift);
  const lons = shift > 0 ? [...Array.from(main.lons), ...added] : [...added, ...Array.from(main.lons)];
  for (let j = 1; j < lons.length; j++) {
    if (Math.abs(lons[j]! - lons[j - 1]! - main.dLon) > 1e-6 * main.dLon) return main;
  }
  const nLat = main.lats.length,
    nMain = main.lons.length,
    nExtra = extra.lons.length,
    n = lons.length;
  // one layer (the totals, or one day's running totals) of both grids, side by side
  const merged = (mainLayer: Float64Array, extraLayer: Float64Array, out: Float64Array) => {
    for (let i = 0; i < nLat; i++) {
      const row = i * n,
        mainAt = shift > 0 ? row : row + keep.length,
        extraAt = shift > 0 ? row + nMain : row;
      for (let j = 0; j < nMain; j++) out[mainAt + j] = mainLayer[i * nMain + j] as number;
      keep.forEach((jx, k) => (out[extraAt + k] = extraLayer[i * nExtra + jx] as number));
    }
    return out;
  };
  const values = merged(main.values, extra.values, new Float64Array(nLat * n));
  const grid: TotalsGrid = { lats: main.lats, lons: Float64Array.from(lons), dLat: main.dLat, dLon: main.dLon, values };
  if (main.running && extra.running) {
    const mainCells = nLat * nMain,
      extraCells = nLat * nExtra,
      days = main.running.length / mainCells;
    const running = new Float64Array(days * nLat * n);
    for (let d = 0; d < days; d++) {
      merged(
        main.running.subarray(d * mainCells, (d + 1) * mainCells),
        extra.running.subarray(d * extraCells, (d + 1) * extraCells),
        running.subarray(d * nLat * n, (d + 1) * nLat * n),
      );
    }
    grid.running = running;
  }
  return grid;
}

/**
 * The grid extended by copies of its edge rows and columns until its hull (the square of its
 * outer cell centres) contains bbox. Used where no cells exist beyond the edge: past the last
 * row next to a pole (a grid centred on x.5 degrees ends half a cell short of it) or at the edge
 * of a regional store. The copies hold the edge cells' own values, which is what the field's
 * cell weights already give that strip (each edge cell reaches half a cell past its centre), so
 * the contours there are those of the nearest cells rather than a refusal.
 */
function extendedTo(grid: TotalsGrid, bbox: BBox): TotalsGrid {
  const [w, s, e, n] = bbox;
  const lats = Array.from(grid.lats),
    lons = Array.from(grid.lons);
  let south = 0,
    north = 0,
    west = 0,
    east = 0;
  while (lats[0]! - south * grid.dLat > s) south++;
  while (lats[lats.length - 1]! + north * grid.dLat < n) north++;
  while (lons[0]! - west * grid.dLon > w) west++;
  while (lons[lons.length - 1]! + east * grid.dLon < e) east++;
  if (south + north + west + east === 0) return grid;
  const nLat = lats.length,
    nLon = lons.length,
    outLon = nLon + west + east,
    outLat = nLat + south + north;
  const values = new Float64Array(outLat * outLon);
  for (let i = 0; i < outLat; i++) {
    const si = Math.min(nLat - 1, Math.max(0, i - south));
    for (let j = 0; j < outLon; j++) values[i * outLon + j] = grid.values[si * nLon + Math.min(nLon - 1, Math.max(0, j - west))] as number;
  }
  return {
    lats: Float64Array.from({ length: outLat }, (_, i) => lats[0]! + (i - south) * grid.dLat),
    lons: Float64Array.from({ length: outLon }, (_, j) => lons[0]! + (j - west) * grid.dLon),
    dLat: grid.dLat,
    dLon: grid.dLon,
    values,
  };
}

/**
 * Totals (degree days, chill) on the cells within `cells` grid cells of the field, on the grid its
 * temperatures come on (an ingested store's, when one covers the field). The field is taken in
 * one continuous longitude frame (RFC 7946 section 3.1.9 has a field at the antimeridian sent as
 * parts cut at ±180), and where that frame or the grown bbox passes ±180 the cells across it are
 * read from the other end of the grid and put beside the others: one window read per variable,
 * two only where the field meets the antimeridian. Latitudes stay within -90..90; with `cover`
 * the grid is extended by copies of its edge cells until it contains the field (extendedTo).
 */
export async function fieldGrid(
  source: GridSource,
  field: FieldRecord,
  totals: CellTotalsReader,
  cells: number,
  cover = false,
): Promise<FieldGrid> {
  const { polygons, shifts } = unwrapLongitudes(field.polygons);
  const [w, s, e, n] = polygonsBBox(polygons);
  const spec = answeringSource(source, totals.variable, { bbox: [Math.max(-180, w), s, Math.min(180, e), n] }, totals.range).grid;
  const [main, ...beyond] = windowParts([w, s, e, n], spec, cells);
  let grid = await totals.read(main!.bbox);
  for (const part of beyond) grid = besides(grid, await totals.read(part.bbox), part.shift);
  return { polygons, shifts, grid: cover ? extendedTo(grid, [w, s, e, n]) : grid };
}
