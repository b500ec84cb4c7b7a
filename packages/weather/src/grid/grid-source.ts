/**
 * The contract between gridded weather data and every area that reads it (docs/architecture.md §6).
 *
 * A GridSource is a regular latitude/longitude grid with a time axis per variable. Values are
 * float32 in the variable's units; NaN marks a missing value. Coordinates are WGS84 degrees,
 * times are epoch milliseconds UTC. Grid points are cell centres: point (i, j) sits at
 * latitude lat0 + i*dLat, longitude lon0 + j*dLon and stands for the cell of size dLat x dLon
 * around it.
 */

/** Ids of the variables the areas read. Each maps to a CF standard name in VariableInfo. */
export type VariableId =
  /** hourly 2 m air temperature, degC */
  | 'air_temperature'
  /** hourly 2 m dewpoint temperature, degC */
  | 'dew_point_temperature'
  /** hourly mean incoming shortwave radiation at the surface, W m-2 */
  | 'surface_downwelling_shortwave_flux_in_air'
  /** hourly clear-sky shortwave radiation at the surface, W m-2 */
  | 'surface_downwelling_shortwave_flux_in_air_assuming_clear_sky'
  /** hourly wind speed at 2 m, m s-1 */
  | 'wind_speed'
  /** hourly surface air pressure, kPa */
  | 'surface_air_pressure'
  /** hourly precipitation rate, mm h-1 */
  | 'precipitation_rate'
  /** hourly precipitation type code: 0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets */
  | 'precipitation_type'
  /** daily maximum 2 m air temperature over the local solar day, degC */
  | 'air_temperature_daily_max'
  /** daily minimum 2 m air temperature over the local solar day, degC */
  | 'air_temperature_daily_min'
  /** static surface altitude, m */
  | 'surface_altitude';

/**
 * The time cell a stamp's value stands for, as offsets from the stamp in ms (CF 1.11 §7.1 cell
 * bounds, with §7.3 cell_methods naming the statistic over it): [-3_600_000, 0] is the hour that
 * ends at the stamp, [-1_800_000, 1_800_000] the hour centred on it, [0, 0] the instant.
 */
export type TimeCell = readonly [startMs: number, endMs: number];

export interface VariableInfo {
  id: VariableId;
  /** CF standard name (cf-conventions standard name table). */
  standardName: string;
  /** CF cell_methods, e.g. "time: maximum" for daily maxima; empty for instantaneous values. */
  cellMethods: string;
  /** UDUNITS-compatible units string. */
  units: string;
  description: string;
  /** Time step of the variable; 0 for static fields. */
  stepMs: number;
  /**
   * The time cell of a stamp's value, where the source knows it: the time bounds of a mean
   * (docs/decisions/0379-time-cells-of-mean-rates.md). Absent, `timeCellOf` (time-cells.ts) gives
   * the instant for a value without a time statistic and, for one with, the step centred on the
   * stamp, what CF 1.11 §7.1 lets a reader assume of a coordinate without bounds.
   */
  timeCell?: TimeCell;
}

/** A regular grid of cell centres. */
export interface GridSpec {
  lat0: number;
  lon0: number;
  dLat: number;
  dLon: number;
  nLat: number;
  nLon: number;
}

/** [west, south, east, north] in degrees. */
export type BBox = [number, number, number, number];

/**
 * Whether a fractional index along an axis of n grid points (0 at the first point, n - 1 at the
 * last) lies in the axis's cells: within half a cell of the outermost points, boundary included.
 * There a read takes the edge cell's value, no extrapolation beyond it: a point read, and a
 * tile's pixel centre (docs/decisions/0441-regional-grids-cover-their-cells.md).
 */
export function withinCells(f: number, n: number): boolean {
  return f >= -0.5 && f <= n - 0.5;
}

/** Whether the grid's longitudes go all the way round (a point east of the last centre wraps to the first). */
export function isGlobalLon(grid: GridSpec): boolean {
  return Math.abs(grid.nLon * grid.dLon - 360) < 1e-6 * 360;
}

/**
 * The extent of the grid's cells as rectangles in -180..180 and -90..90: where withinCells holds
 * along both axes (a longitude moved a whole turn into the grid's, lonInGrid), every longitude for
 * a grid that goes all the way round. What a grid's reads give values over, so a product read from
 * the grid alone covers it. Cells across the antimeridian (a grid kept in 0..360, 150 to 230) are
 * two rectangles, cut at it as RFC 7946 §3.1.9 cuts a geometry that crosses it.
 */
export function cellsExtent(grid: GridSpec): BBox[] {
  const { lat0, dLat, nLat, lon0, dLon, nLon } = grid;
  // The first and last edges, in either order: a grid may run north to south.
  const [lat1, lat2] = [lat0 - dLat / 2, lat0 + (nLat - 0.5) * dLat];
  const [lon1, lon2] = [lon0 - dLon / 2, lon0 + (nLon - 0.5) * dLon];
  const [south, north] = [Math.max(-90, Math.min(lat1, lat2)), Math.min(90, Math.max(lat1, lat2))];
  const width = Math.abs(lon2 - lon1);
  if (isGlobalLon(grid) || width >= 360) return [[-180, south, 180, north]];
  // The west edge moved a whole turn into [-180, 180), the east edge with it.
  const turn = 360 * Math.floor((Math.min(lon1, lon2) + 180) / 360);
  const west = Math.min(lon1, lon2) - turn;
  const east = west + width;
  if (east <= 180) return [[west, south, east, north]];
  return [
    [west, south, 180, north],
    [-180, south, east - 360, north],
  ];
}

/**
 * Degrees with the binary noise of repeated decimal steps (0.1 + 0.2, 1.3 - 0.2 is not 11 times
 * 0.1) and of a spacing computed from coordinates ((last - first) / (n - 1), 0.09999999999999999)
 * rounded away, to 1e-9 degrees.
 */
export const tidyDegrees = (v: number): number => Math.round(v * 1e9) / 1e9;

export interface TimeRange {
  /** inclusive, epoch ms UTC */
  startMs: number;
  /** inclusive, epoch ms UTC */
  endMs: number;
}

export interface PointSeries {
  variable: VariableId;
  units: string;
  /** time of values[0], epoch ms; daily series are stamped at 00:00Z of their date */
  startMs: number;
  stepMs: number;
  values: Float32Array;
  /**
   * The time cell of each value (`timeCellOf` of the variable as the answering source describes
   * it); absent, the instant. Readers take the values over an interval through time-cells.ts.
   */
  timeCell?: TimeCell;
  /**
   * Name of the product that supplied values[i] (analysis before the forecast boundary,
   * forecast after it): the spec's `products` arrays (spec 2.7).
   */
  productOf(index: number): string;
}

/** Values of one variable on the grid cells whose centres fall inside a bbox. */
export interface GridWindow {
  variable: VariableId;
  units: string;
  /** cell-centre latitudes, ascending */
  lats: Float64Array;
  /** cell-centre longitudes, ascending */
  lons: Float64Array;
  /** cell size, degrees */
  dLat: number;
  dLon: number;
  startMs: number;
  stepMs: number;
  /** number of time steps */
  nt: number;
  /** row-major [t][lat][lon] */
  values: Float32Array;
  /** as PointSeries.timeCell */
  timeCell?: TimeCell;
  productOf(timeIndex: number): string;
}

export interface GridSource {
  /** stable id of the source, e.g. "synthetic" or a Zarr store id */
  readonly id: string;
  /** label shown wherever its values appear ("synthetic" for the demo world) */
  readonly label: string;
  readonly grid: GridSpec;
  /** times this source can answer for (inclusive) */
  coverage(): TimeRange;
  variables(): VariableInfo[];
  /**
   * bilinear interpolation in space between the four grid points around the place's coordinates
   * (placeOfPoint: one value at a pole, longitude 180 read as -180)
   */
  pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries>;
  /** every time step of the range for the cells whose centres lie in bbox */
  window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow>;
  /** one time step (the one at or before timeMs) for the cells whose centres lie in bbox */
  slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow>;
  /**
   * Both daily temperature extremes at a point: the two pointSeries reads of
   * air_temperature_daily_max and air_temperature_daily_min, in one call so a source that derives
   * both from the same computation (the synthetic world) does it once.
   */
  dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>>;
  /** Both daily temperature extremes over a bbox: the two window reads, in one call. */
  dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>>;
  /** The five hourly inputs of reference evapotranspiration at a point: five pointSeries reads in one call. */
  etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>>;
  /** The five hourly inputs of reference evapotranspiration over a bbox: five window reads in one call. */
  etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>>;
}

/**
 * A source that reads a sub-grid of its own grid in one call: every time step of the range at the
 * grid points of chosen rows crossed with chosen columns, which need not be adjacent (a coarser
 * grid sampled from this one). Terms shared by a row or a column are computed once for the call,
 * not once per point, so sampling a global grid costs what its points cost. Optional: a source
 * without it is read by windows.
 */
export interface SubgridReads {
  /**
   * One window per variable, in order, at the grid points nearest to each of `lats` crossed with
   * each of `lons` (both ascending; each is snapped to its nearest grid row or column, clamped to
   * the grid). The windows' lats and lons are those grid points' coordinates and their values the
   * same as a window read of each point gives.
   */
  subgrid(variables: readonly VariableId[], lats: Float64Array, lons: Float64Array, range: TimeRange): Promise<GridWindow[]>;
  /**
   * One array per variable, in order, of the values pointSeries gives at the instant timeMs (a
   * range of that one instant) at each of `lats` crossed with each of `lons` (any order; row-major,
   * a row per latitude): read as one sub-grid of the grid points around them, for reads of many
   * points at one time such as a map tile's pixels below the grid's resolution. An array is empty
   * where the variable has no step at that instant (pointSeries' empty series).
   */
  pointGrid(variables: readonly VariableId[], lats: Float64Array, lons: Float64Array, timeMs: number): Promise<Float32Array[]>;
  /**
   * What dailyExtremesAt gives at each point (lons[k], lats[k]), in their order: read together,
   * for reads of many scattered points over the same days such as a batch of places
   * (docs/decisions/0306-batch-points-read-together.md).
   */
  dailyExtremesAtPoints(lons: Float64Array, lats: Float64Array, range: TimeRange): Promise<DailyExtremes<PointSeries>[]>;
}

export function readsSubgrids(source: GridSource): source is GridSource & SubgridReads {
  return typeof (source as Partial<SubgridReads>).subgrid === 'function';
}

/**
 * The coordinates a point read interpolates at: one pair per place on the globe, so every
 * source's point reads (and the choice of source answering them) give one place one value. A
 * pole is one place whatever the longitude a request names, read at longitude 0; longitude 180 is
 * the meridian -180 is, read as -180, where the grids' first column lies
 * (docs/decisions/0428-one-point-read-per-place.md). Anything else, an invalid point included, is
 * returned as given for the source to check.
 */
export function placeOfPoint(lon: number, lat: number): { lon: number; lat: number } {
  if (lat === 90 || lat === -90) return { lon: 0, lat };
  if (lon === 180) return { lon: -180, lat };
  return { lon, lat };
}

/** Daily maximum and minimum 2 m air temperature over the same days and place. */
export interface DailyExtremes<T> {
  /** air_temperature_daily_max */
  tmax: T;
  /** air_temperature_daily_min */
  tmin: T;
}

/**
 * The hourly weather inputs of the ASCE-EWRI 2005 standardized reference evapotranspiration
 * (air temperature, humidity as dewpoint, shortwave radiation, 2 m wind, pressure), over the
 * same hours and place.
 */
export interface EtInputs<T> {
  /** air_temperature */
  airTemperature: T;
  /** dew_point_temperature */
  dewpoint: T;
  /** surface_downwelling_shortwave_flux_in_air */
  shortwave: T;
  /** wind_speed */
  windSpeed: T;
  /** surface_air_pressure */
  pressure: T;
}

/** The variable each EtInputs member reads. */
export const ET_INPUT_VARIABLES: Readonly<Record<keyof EtInputs<unknown>, VariableId>> = {
  airTemperature: 'air_temperature',
  dewpoint: 'dew_point_temperature',
  shortwave: 'surface_downwelling_shortwave_flux_in_air',
  windSpeed: 'wind_speed',
  pressure: 'surface_air_pressure',
};

/** The EtInputs members, in ET_INPUT_VARIABLES' order. */
export const ET_INPUT_KEYS = Object.keys(ET_INPUT_VARIABLES) as readonly (keyof EtInputs<unknown>)[];

/** Why a GridSource refused a request; every code is a caller error (HTTP 400 in the areas, not_synced 404). */
export type GridRequestErrorCode =
  /** a time or time range outside coverage() */
  | 'out_of_coverage'
  /** a variable the source does not provide */
  | 'unknown_variable'
  /** bbox not [west, south, east, north] with west <= east, south <= north, inside the globe */
  | 'invalid_bbox'
  /** a point outside -90..90 / -180..180 or not a finite number */
  | 'invalid_location'
  /** the request would produce more values than the source's limit */
  | 'too_large'
  /**
   * no synced or ingested store holds it and the synthetic world is off (FIELDCAST_SYNTHETIC=off):
   * 404 synced_weather_does_not_exist in the areas (docs/decisions/0256-synthetic-off.md)
   */
  | 'not_synced';

/**
 * A request a GridSource cannot answer because of its arguments (not a fault of the source).
 * Areas map it to 400 with `code` as the problem id. Other sources should throw it (or a
 * subclass) too, so one `instanceof GridRequestError` check covers every source.
 */
export class GridRequestError extends RangeError {
  override name = 'GridRequestError';
  constructor(
    readonly code: GridRequestErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The forecast boundary at wall-clock time nowMs: the start of the current UTC hour. Values valid
 * at or before it come from the analysis product, later ones from the forecast product (spec 2.7
 * `products`).
 */
export function forecastBoundaryMs(nowMs: number): number {
  return Math.floor(nowMs / 3_600_000) * 3_600_000;
}
