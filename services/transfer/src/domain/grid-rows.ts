/**
 * The rows of a dataset's grid, read from the weather (docs/architecture.md §6: through
 * GridSource only). A dataset's grid is regular, cell centres `resolution` apart inside its
 * bounds; each of its cells takes the value of the source's grid cell nearest to its centre, so
 * the file holds the source's own values, never a blend (a category such as precipitation type
 * stays a category) (docs/decisions/0162-dataset-grids-and-names.md). A source that reads
 * sub-grids is read a band of rows at a time, only the cells kept
 * (docs/decisions/0165-dataset-rows-by-subgrid-reads.md); another by windows, a row at a time.
 */
import {
  answeringSource,
  type BBox,
  cellsExtent,
  type GridSource,
  type GridSpec,
  type GridWindow,
  readsSubgrids,
  type SubgridReads,
  type TimeRange,
  type VariableId,
  tidyDegrees as tidy,
} from '@fieldcast/weather';
import { type RasterRow, type RowTimeCell, sameTimeCell } from '../formats/raster.js';

export interface DatasetGrid {
  /** cell-centre latitudes, north to south */
  lats: Float64Array;
  /** cell-centre longitudes, west to east */
  lons: Float64Array;
  /** distance between cell centres, degrees */
  resolution: number;
  /**
   * [west, south, east, north], the outer edges of the regular grid's cells, as a GeoTIFF's
   * geotransform states them: half a cell past a pole (or 180 W) where the outer cells are centred
   * on it (docs/decisions/0467-cells-centred-on-a-pole.md)
   */
  bounds: BBox;
  /**
   * [west, south, east, north], the cells' extent on the globe, the dataset record's `bounds`
   * (RFC 7946 §5 and STAC take a bbox within -180..180 and -90..90): `bounds` ending at the poles,
   * every longitude for cells that go all the way round, and west past east for cells across the
   * antimeridian, as RFC 7946 §5.2 states them (docs/decisions/0468-dataset-bounds-across-the-antimeridian.md)
   */
  extent: BBox;
  /** the edges between rows, north to south (one more than the rows), ending at the poles: the rows' cell bounds (CF 1.11 §7.1) */
  latEdges: Float64Array;
  /** the edges between columns, west to east (one more than the columns) */
  lonEdges: Float64Array;
}

/** A latitude past a pole taken to the pole: a cell centred on a pole ends at it. */
const onGlobe = (lat: number) => Math.min(90, Math.max(-90, lat));

/** The grid of cells `resolution` apart that exactly fills `bounds` (whose sides are whole multiples of it). */
export function datasetGrid(bounds: BBox, resolution: number): DatasetGrid {
  const [west, south, east, north] = bounds;
  // The resolution and every side tidied: a synced store's come of its spacing, whose noise (a
  // north edge of 90.00000000000001) is no spacing or edge of its cells.
  const d = tidy(resolution);
  const nLat = Math.max(1, Math.round((north - south) / d));
  const nLon = Math.max(1, Math.round((east - west) / d));
  const lats = Float64Array.from({ length: nLat }, (_, i) => tidy(north - (i + 0.5) * d));
  const lons = Float64Array.from({ length: nLon }, (_, j) => tidy(west + (j + 0.5) * d));
  const rowEdges = Float64Array.from({ length: nLat + 1 }, (_, i) => tidy(north - i * d));
  const lonEdges = Float64Array.from({ length: nLon + 1 }, (_, j) => tidy(west + j * d));
  // The cells on the globe as the platform's coverage states them: one rectangle, or two cut at the antimeridian.
  const parts = cellsExtent({ lat0: lats[nLat - 1]!, dLat: d, nLat, lon0: lons[0]!, dLon: d, nLon });
  const [first, last] = [parts[0]!, parts.at(-1)!];
  return {
    lats,
    lons,
    resolution: d,
    bounds: [lonEdges[0]!, rowEdges[nLat]!, lonEdges[nLon]!, rowEdges[0]!],
    extent: [tidy(first[0]), tidy(first[1]), tidy(last[2]), tidy(first[3])],
    latEdges: rowEdges.map(onGlobe),
    lonEdges,
  };
}

/** The two daily extremes are read in one call where a source computes both at once (grid-source.ts). */
const EXTREMES: readonly VariableId[] = ['air_temperature_daily_max', 'air_temperature_daily_min'];

async function strips(source: GridSource, variables: readonly VariableId[], bbox: BBox, range: TimeRange): Promise<GridWindow[]> {
  if (variables.length === 2 && variables[0] === EXTREMES[0] && variables[1] === EXTREMES[1]) {
    const { tmax, tmin } = await source.dailyExtremesIn(bbox, range);
    return [tmax, tmin];
  }
  const out: GridWindow[] = [];
  for (const v of variables) out.push(await source.window(v, bbox, range));
  return out;
}

/** Index of the value nearest to `x` in an ascending, evenly spaced axis, clamped to it. */
function nearest(axis: Float64Array, step: number, x: number): number {
  if (axis.length === 0) return -1;
  const i = Math.round((x - axis[0]!) / step);
  return Math.min(axis.length - 1, Math.max(0, i));
}

/**
 * Above this many source columns per kept column a row is read as one window per kept cell
 * rather than one strip: a strip computes every source cell of the row (36,000 over the synthetic
 * world's 0.01 degrees to keep 1,440), a cell window only the cell, at a fixed cost per call.
 * Measured over the synthetic world: equal for daily values at 25 to 1, twice as fast for hourly.
 */
export const CELL_READS_ABOVE = 12;

/**
 * The time cell of a row's values of a variable: that of the reads that gave them
 * (GridWindow.timeCell, the answering source's), or 'mixed' where they differ; reads that gave no
 * values do not count.
 */
function cellOfReads(windows: readonly (GridWindow | undefined)[]): RowTimeCell {
  let cell: RowTimeCell | null = null;
  for (const w of windows) {
    if (!w || w.values.length === 0) continue;
    if (cell === null) cell = w.timeCell;
    else if (!sameTimeCell(cell, w.timeCell)) return 'mixed';
  }
  return cell ?? undefined;
}

/** One row's values, [time][lon], from windows holding the row (a strip, or one per cell). */
function rowValues(windows: GridWindow[][], columns: (w: GridWindow) => number[], steps: number, nLon: number): Float32Array {
  const out = new Float32Array(steps * nLon).fill(Number.NaN);
  if (windows.length === 1) {
    const w = windows[0]![0]!;
    const width = w.lons.length;
    if (w.lats.length === 0 || width === 0) return out;
    const at = columns(w);
    // The strip's middle row is the one nearest the centre (one row, unless the source's rows are closer than dLat / 2).
    const r = Math.floor(w.lats.length / 2);
    for (let t = 0; t < Math.min(steps, w.nt); t++) {
      const base = (t * w.lats.length + r) * width;
      for (let x = 0; x < nLon; x++) out[t * nLon + x] = w.values[base + at[x]!]!;
    }
    return out;
  }
  windows.forEach(([w], x) => {
    if (!w || w.values.length === 0) return;
    for (let t = 0; t < Math.min(steps, w.nt); t++) out[t * nLon + x] = w.values[t * w.lats.length * w.lons.length]!;
  });
  return out;
}

/** Cells one sub-grid read holds at most: 45 rows of a global 0.25 degree grid, a few MB of values and scratch. */
export const SUBGRID_CELLS = 65_536;

/** The source's grid row and column nearest each cell centre of the dataset, as the source's coordinates. */
function nearestOnGrid(g: GridSpec, grid: DatasetGrid): { rowLats: Float64Array; cellLons: Float64Array } {
  const index = (x: number, x0: number, d: number, n: number) => Math.min(n - 1, Math.max(0, Math.round((x - x0) / d)));
  return {
    rowLats: Float64Array.from(grid.lats, (lat) => g.lat0 + index(lat, g.lat0, g.dLat, g.nLat) * g.dLat),
    cellLons: Float64Array.from(grid.lons, (lon) => g.lon0 + index(lon, g.lon0, g.dLon, g.nLon) * g.dLon),
  };
}

/** The band's rows [time][lon] per variable, north to south, from one sub-grid read (whose rows ascend). */
async function subgridRows(
  reader: SubgridReads,
  variables: readonly VariableId[],
  rowLats: Float64Array,
  cellLons: Float64Array,
  range: TimeRange,
  steps: number,
): Promise<RasterRow[]> {
  const windows = await reader.subgrid(variables, rowLats.slice().reverse(), cellLons, range);
  const nRows = rowLats.length;
  const nLon = cellLons.length;
  const timeCells = windows.map((w) => cellOfReads([w]));
  return Array.from({ length: nRows }, (_, y) => ({
    values: windows.map((w) => {
      const out = new Float32Array(steps * nLon).fill(Number.NaN);
      const r = nRows - 1 - y;
      for (let t = 0; t < Math.min(steps, w.nt); t++)
        out.set(w.values.subarray((t * nRows + r) * nLon, (t * nRows + r + 1) * nLon), t * nLon);
      return out;
    }),
    timeCells,
  }));
}

/**
 * The grid's rows, north to south: per variable, its values [time][lon] (NaN where the source has
 * none) and the time cell the reads that gave them state. `steps` is the number of time steps
 * each window is expected to hold. Rows are read in bands of `bandCells` (SUBGRID_CELLS) where
 * the source answering a band reads sub-grids, and otherwise one row at a time by windows; `cellReads` chooses one window per kept cell over one
 * strip per row (by default above CELL_READS_ABOVE). The event loop is given back between rows,
 * so other requests are answered while a large file is made.
 */
export async function* gridRows(
  source: GridSource,
  variables: readonly VariableId[],
  grid: DatasetGrid,
  range: TimeRange,
  steps: number,
  options: { cellReads?: boolean; bandCells?: number } = {},
): AsyncGenerator<RasterRow> {
  const nLon = grid.lons.length;
  const bandRows = Math.max(1, Math.floor((options.bandCells ?? SUBGRID_CELLS) / nLon));
  const [west, , east] = grid.bounds;
  for (let first = 0; first < grid.lats.length; first += bandRows) {
    const lats = grid.lats.subarray(first, first + bandRows);
    // The band as a request: the source that answers all of it for every variable (CompositeSource routes whole requests).
    const place = { bbox: [west, grid.lats[first + lats.length - 1]!, east, lats[0]!] as BBox };
    const reader = answeringSource(source, variables[0]!, place, range);
    if (readsSubgrids(reader) && variables.every((v) => answeringSource(source, v, place, range) === reader)) {
      const { rowLats, cellLons } = nearestOnGrid(reader.grid, { ...grid, lats });
      for (const row of await subgridRows(reader, variables, rowLats, cellLons, range, steps)) {
        yield row;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } else {
      yield* windowRows(source, reader.grid, variables, { ...grid, lats }, range, steps, options.cellReads);
    }
  }
}

/**
 * The rows by windows: a strip per row and variable, or a window per kept cell, on the grid of the
 * source answering the band (`on`): a store's rows and columns, not those of the world behind it.
 */
async function* windowRows(
  source: GridSource,
  on: GridSpec,
  variables: readonly VariableId[],
  grid: DatasetGrid,
  range: TimeRange,
  steps: number,
  cellReads?: boolean,
): AsyncGenerator<RasterRow> {
  const { lat0, dLat, nLat, lon0, dLon, nLon: sourceColumns } = on;
  const nLon = grid.lons.length;
  const west = Math.max(-180, grid.lons[0]! - dLon);
  const east = Math.min(180, grid.lons[nLon - 1]! + dLon);
  const byCell = cellReads ?? (east - west) / dLon > CELL_READS_ABOVE * nLon;
  // The source column nearest each kept cell's centre, for reads by cell.
  const cellLons = Array.from(grid.lons, (lon) => lon0 + Math.min(sourceColumns - 1, Math.max(0, Math.round((lon - lon0) / dLon))) * dLon);
  const columns = (w: GridWindow) => Array.from(grid.lons, (lon) => nearest(w.lons, w.dLon, lon));
  for (const lat of grid.lats) {
    const sourceRow = Math.min(nLat - 1, Math.max(0, Math.round((lat - lat0) / dLat)));
    const rowLat = lat0 + sourceRow * dLat;
    // A quarter of a source cell either side of its centre holds that row (or cell) alone.
    const south = Math.max(-90, rowLat - dLat / 4);
    const north = Math.min(90, rowLat + dLat / 4);
    const windows: GridWindow[][] = []; // [cell][variable], one cell for a strip
    if (byCell) {
      for (const lon of cellLons)
        windows.push(await strips(source, variables, [Math.max(-180, lon - dLon / 4), south, Math.min(180, lon + dLon / 4), north], range));
    } else {
      windows.push(await strips(source, variables, [west, south, east, north], range));
    }
    const reads = variables.map((_, v) => windows.map((cell) => cell[v]));
    yield {
      values: reads.map((w) => rowValues(byCell ? w.map((cell) => [cell!]) : [[w[0]!]], columns, steps, nLon)),
      timeCells: reads.map(cellOfReads),
    };
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
