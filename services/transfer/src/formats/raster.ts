/**
 * What a file writer is given: a regular latitude/longitude grid of cell centres, north to south
 * and west to east, its time steps and its variables, and the rows of values as they are read.
 */
import type { BBox, TimeCell } from '@fieldcast/weather';

export interface RasterLayout {
  /** cell-centre latitudes, north to south */
  lats: Float64Array;
  /** cell-centre longitudes, west to east */
  lons: Float64Array;
  /** distance between cell centres, degrees */
  resolution: number;
  /**
   * [west, south, east, north], the outer edges of the regular grid's cells (the dataset grid's
   * `bounds`, the record's but where cells are centred on a pole): a file's extent is these
   * numbers, not edges derived again from the centres, whose decimal steps carry binary noise
   * (docs/interface.md §9, docs/decisions/0467-cells-centred-on-a-pole.md)
   */
  bounds: BBox;
  /** the edges between rows, north to south, ending at the poles, and between columns, west to east: the cells' bounds (CF 1.11 §7.1) */
  latEdges: Float64Array;
  lonEdges: Float64Array;
  /** valid times, epoch ms; empty for a static field */
  times: number[];
  /** the variables' time step, ms (a day for daily series, stamped 00:00Z of their date); 0 for a static field */
  stepMs: number;
  variables: RasterVariable[];
  /** the file's title, source and history (NetCDF global attributes, GeoTIFF metadata) */
  title: string;
  source: string;
  history: string;
}

export interface RasterVariable {
  /** the variable's id, the band description and the NetCDF variable name */
  name: string;
  /** CF standard name; empty when CF has none */
  standardName: string;
  /** UDUNITS units */
  units: string;
  longName: string;
  /** CF cell_methods, empty for instantaneous values */
  cellMethods: string;
  /** metres above the ground the values are at (2 m air temperature), absent where none is stated */
  heightM?: number;
}

/**
 * The time cell a row's values of one variable stand for, as the reads that gave them state it
 * (GridWindow.timeCell, docs/decisions/0379-time-cells-of-mean-rates.md): offsets from each
 * stamp in ms; undefined where the reads state none; 'mixed' where the reads of the row state
 * different ones (cells of a row answered by different sources).
 */
export type RowTimeCell = TimeCell | undefined | 'mixed';

/**
 * One row of the grid (one latitude): for each variable, its values [time][lon], with NaN where
 * the source has none, and the time cell they stand for. Rows come north to south.
 */
export interface RasterRow {
  values: Float32Array[];
  timeCells: RowTimeCell[];
}

/** Whether two rows' cells of a variable are the same. */
export function sameTimeCell(a: RowTimeCell, b: RowTimeCell): boolean {
  if (a === b) return true;
  return typeof a === 'object' && typeof b === 'object' && a[0] === b[0] && a[1] === b[1];
}

/** Rows of the grid in order, read from the weather as the writer asks for them. */
export type RasterRows = AsyncIterable<RasterRow>;

/**
 * The value written where the source has none: GDAL_NODATA of the GeoTIFF and _FillValue of the
 * NetCDF. A finite number far outside every variable's range, so no reader confuses it with NaN
 * handling of its own (CF 1.8 section 2.5.1).
 */
export const NODATA = -9999;

/** Where a writer puts bytes: at a position of the file it is making. */
export interface PositionalSink {
  write(bytes: Uint8Array, position: number): Promise<void>;
}
