/**
 * What a file writer is given: a regular latitude/longitude grid of cell centres, north to south
 * and west to east, its time steps and its variables, and the rows of values as they are read.
 */
export interface RasterLayout {
  /** cell-centre latitudes, north to south */
  lats: Float64Array;
  /** cell-centre longitudes, west to east */
  lons: Float64Array;
  /** distance between cell centres, degrees */
  resolution: number;
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
}

/**
 * One row of the grid (one latitude): for each variable, its values [time][lon], with NaN where
 * the source has none. Rows come north to south.
 */
export type RasterRow = Float32Array[];

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
