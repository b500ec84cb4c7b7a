/**
 * SyntheticSource: the embedded default GridSource (docs/architecture.md §6). A procedural,
 * deterministic, global world on a 0.01 degree grid, from 2015-01-01T00:00Z to 16 days after the
 * current hour, with no storage. Values at a grid point are a function of (lat, lon, time) only,
 * so every process and every request shape gives the same numbers. What is kept between requests
 * is explicit, bounded and keyed, and holds values any request would compute alike: chunks of
 * daily extremes, of hourly variables and of the five hourly ET inputs for point reads
 * (point-chunk-cache.ts), and the static terms of the 2 x 2 grid points of recent point reads
 * (block.ts).
 */
import {
  SYNTHETIC_ANALYSIS_PRODUCT,
  SYNTHETIC_FORECAST_PRODUCT,
  SYNTHETIC_HORIZON_HOURS,
  SYNTHETIC_SOURCE_ID,
} from '../catalog/sources.js';
import {
  type BBox,
  type DailyExtremes,
  ET_INPUT_KEYS,
  ET_INPUT_VARIABLES,
  type EtInputs,
  forecastBoundaryMs,
  type GridSource,
  type GridSpec,
  GridRequestError,
  type GridWindow,
  placeOfPoint,
  type PointSeries,
  type SubgridReads,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '../grid/grid-source.js';
import { type Block, makeBlock, makeCellBlock } from './block.js';
import { HOUR_MS } from './calendar.js';
import { PointExtremesCache } from './extremes-cache.js';
import { PointChunkCache } from './point-chunk-cache.js';
import { computeDailyExtremes, computeEtInputs, computeVariable } from './block-variables.js';
import { type SevereEvent, type SevereKind, severeEvents } from './severe.js';
import { SYNTHETIC_VARIABLES, syntheticVariable } from './variables.js';
import { timeCellField } from '../grid/time-cells.js';
import { isCategorical } from '../zarr/cf-variables.js';

/** First instant the synthetic world covers (spec 4.1: degree days from the start of 2015). */
export const SYNTHETIC_START_MS = Date.UTC(2015, 0, 1);

/** The native grid: 0.01 degree cell centres from -90/-180 (lon 180 is the same as -180). */
export const SYNTHETIC_GRID: GridSpec = { lat0: -90, lon0: -180, dLat: 0.01, dLon: 0.01, nLat: 18001, nLon: 36000 };

const TMAX: VariableId = 'air_temperature_daily_max';
const TMIN: VariableId = 'air_temperature_daily_min';

/** Cells per degree; coordinates are computed as (index - offset) / 100 so they are exact decimals. */
const PER_DEG = 100;
const LAT_OFFSET = 9000;
const LON_OFFSET = 18000;
/**
 * Hours per chunk of hourly point reads: a day, so the 49 hours of a default ET series touch
 * three. Shorter reads (a datapoint, a tile's pixel) are computed for their hours alone.
 */
const HOUR_CHUNK = 24;

/** Blocks of 2 x 2 grid points kept for point reads (about 2 KB each). */
const POINT_BLOCKS = 1024;

/** Tolerance when deciding whether a cell centre lies on a bbox edge, in cells. */
const EDGE_EPS = 1e-7;

export interface SyntheticSourceOptions {
  /** wall clock, epoch ms; sets the coverage end and the analysis/forecast boundary (default Date.now) */
  now?: () => number;
  /** most values one request may produce (default 50 million, 200 MB of float32) */
  maxValues?: number;
  /**
   * Chunks of daily extremes kept for point reads (extremes-cache.ts; 2 KB each, default 4096:
   * 8 MB, a year at about 600 points); 0 keeps none.
   */
  pointCacheChunks?: number;
  /**
   * Chunks of one day of the five hourly ET inputs kept for point reads (point-chunk-cache.ts;
   * 1.9 KB each, default 8192: 16 MB, a year at 22 points); 0 keeps none.
   */
  pointEtChunks?: number;
  /**
   * Chunks of one day of an hourly variable kept for point reads, per variable
   * (point-chunk-cache.ts; 384 bytes each, default 4096: 1.5 MB, a year at 11 points); 0 keeps none.
   */
  pointHourChunks?: number;
  /** product names for the spec's `products` arrays */
  analysisProduct?: string;
  forecastProduct?: string;
}

interface TimeAxis {
  i0: number;
  n: number;
  startMs: number;
  stepMs: number;
}

function latAt(i: number): number {
  return (i - LAT_OFFSET) / PER_DEG;
}

function lonAt(j: number): number {
  return (j - LON_OFFSET) / PER_DEG;
}

/** The grid row at or below a latitude in -90..90 and the latitude's fraction of the way to the next. */
function rowCell(lat: number): { i0: number; fy: number } {
  const y = (lat + 90) * PER_DEG;
  const i0 = Math.floor(y);
  // The north pole row has no row above it: blend from the one below.
  return i0 >= SYNTHETIC_GRID.nLat - 1 ? { i0: SYNTHETIC_GRID.nLat - 2, fy: 1 } : { i0, fy: y - i0 };
}

/** The grid columns around a longitude in -180..180 (they wrap: lon 180 is lon -180) and its fraction between them. */
function columnCells(lon: number): { j0: number; j1: number; fx: number } {
  const x = (lon + 180) * PER_DEG;
  const j = Math.floor(x);
  return { j0: j % SYNTHETIC_GRID.nLon, j1: (j + 1) % SYNTHETIC_GRID.nLon, fx: x - j };
}

/** Bilinear weights of the 2 x 2 grid points (row-major: (i, j0), (i, j1), (i + 1, j0), (i + 1, j1)) into `out`, which is returned. */
function bilinearWeights<T extends [number, number, number, number] | Float64Array>(fx: number, fy: number, out: T): T {
  out[0] = (1 - fy) * (1 - fx);
  out[1] = (1 - fy) * fx;
  out[2] = fy * (1 - fx);
  out[3] = fy * fx;
  return out;
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

export class SyntheticSource implements GridSource, SubgridReads {
  readonly id = SYNTHETIC_SOURCE_ID;
  readonly label = SYNTHETIC_SOURCE_ID;
  readonly grid = SYNTHETIC_GRID;
  private readonly now: () => number;
  private readonly maxValues: number;
  private readonly pointExtremes: PointExtremesCache;
  private readonly pointEt: PointChunkCache<keyof EtInputs<unknown>>;
  private readonly pointHourly = new Map<VariableId, PointChunkCache<'values'>>();
  private readonly pointHourChunks: number;
  /** static terms of point reads' grid points, by rows and columns; least recently used out */
  private readonly pointBlocks = new Map<string, Block>();
  private readonly analysis: string;
  private readonly forecast: string;
  constructor(options: SyntheticSourceOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxValues = options.maxValues ?? 50_000_000;
    this.pointExtremes = new PointExtremesCache(options.pointCacheChunks ?? 4096);
    this.pointEt = new PointChunkCache(ET_INPUT_KEYS, HOUR_CHUNK, options.pointEtChunks ?? 8192, HOUR_CHUNK);
    this.pointHourChunks = options.pointHourChunks ?? 4096;
    this.analysis = options.analysisProduct ?? SYNTHETIC_ANALYSIS_PRODUCT;
    this.forecast = options.forecastProduct ?? SYNTHETIC_FORECAST_PRODUCT;
  }

  coverage(): TimeRange {
    return { startMs: SYNTHETIC_START_MS, endMs: forecastBoundaryMs(this.now()) + SYNTHETIC_HORIZON_HOURS * HOUR_MS };
  }

  variables(): VariableInfo[] {
    return SYNTHETIC_VARIABLES.map((v) => ({ ...v }));
  }

  /** Values valid at or before this instant come from the analysis product. */
  forecastBoundary(): number {
    return forecastBoundaryMs(this.now());
  }

  async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    return this.pointSeriesSync(variable, lon, lat, range);
  }

  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    return this.windowSync(variable, bbox, range);
  }

  async slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.sliceSync(variable, bbox, timeMs);
  }

  async dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    const p = this.pointCells(lon, lat);
    const axis = this.timeAxis(this.info(TMAX), range);
    this.checkSize(2 * 4 * axis.n);
    const { tmax, tmin } = this.pointDailyExtremes(p, axis);
    return {
      tmax: this.series(this.info(TMAX), axis, mixPoint(tmax, p, axis.n), p.lon),
      tmin: this.series(this.info(TMIN), axis, mixPoint(tmin, p, axis.n), p.lon),
    };
  }

  async dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    const cells = cellsIn(bbox);
    const axis = this.timeAxis(this.info(TMAX), range);
    const nCells = cells.lats.length * cells.lons.length;
    this.checkSize(2 * nCells * axis.n);
    const empty = nCells === 0 || axis.n === 0;
    const { tmax, tmin } = empty
      ? { tmax: new Float32Array(0), tmin: new Float32Array(0) }
      : computeDailyExtremes(makeBlock(cells.lats, cells.lons), axis.i0, axis.n);
    return { tmax: this.windowOf(this.info(TMAX), cells, axis, tmax), tmin: this.windowOf(this.info(TMIN), cells, axis, tmin) };
  }

  async etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>> {
    const p = this.pointCells(lon, lat);
    const axis = this.timeAxis(this.info('air_temperature'), range);
    this.checkSize(ET_INPUT_KEYS.length * 4 * axis.n);
    const fields = this.pointEt.read(p.i, p.j0, p.j1, axis.i0, axis.n, (firstHour, hours) =>
      computeEtInputs(this.pointBlock(p), firstHour, hours),
    );
    return mapEtInputs((k) => this.series(this.info(ET_INPUT_VARIABLES[k]), axis, mixPoint(fields[k], p, axis.n), p.lon));
  }

  async etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
    const cells = cellsIn(bbox);
    const axis = this.timeAxis(this.info('air_temperature'), range);
    const nCells = cells.lats.length * cells.lons.length;
    this.checkSize(ET_INPUT_KEYS.length * nCells * axis.n);
    const fields = nCells === 0 || axis.n === 0 ? null : computeEtInputs(makeBlock(cells.lats, cells.lons), axis.i0, axis.n);
    return mapEtInputs((k) => this.windowOf(this.info(ET_INPUT_VARIABLES[k]), cells, axis, fields ? fields[k] : new Float32Array(0)));
  }

  /**
   * One block of the chosen rows x columns serves every variable (grid-source.ts SubgridReads):
   * its geography and per-row and per-column terms are computed once, and both daily extremes
   * come from one set of anchors. A point's values depend only on its coordinates and the time
   * (module comment), so they equal a window read of the point.
   */
  async subgrid(variables: readonly VariableId[], lats: Float64Array, lons: Float64Array, range: TimeRange): Promise<GridWindow[]> {
    const infos = variables.map((v) => this.info(v));
    const cells = {
      lats: gridAxis(lats, 'latitude', 90, LAT_OFFSET, SYNTHETIC_GRID.nLat),
      lons: gridAxis(lons, 'longitude', 180, LON_OFFSET, SYNTHETIC_GRID.nLon),
    };
    const axes = infos.map((info) => this.timeAxis(info, range));
    const nCells = cells.lats.length * cells.lons.length;
    this.checkSize(axes.reduce((sum, a) => sum + nCells * a.n, 0));
    let block: Block | null = null;
    const blockOf = () => (block ??= makeBlock(cells.lats, cells.lons));
    // Both daily extremes (one time axis) come from one set of anchors.
    const tmaxAt = variables.indexOf(TMAX);
    const extremes =
      tmaxAt >= 0 && variables.includes(TMIN) && nCells > 0 && axes[tmaxAt]!.n > 0
        ? computeDailyExtremes(blockOf(), axes[tmaxAt]!.i0, axes[tmaxAt]!.n)
        : null;
    return infos.map((info, k) => {
      const axis = axes[k]!;
      if (nCells === 0 || axis.n === 0) return this.windowOf(info, cells, axis, new Float32Array(0));
      if (extremes && (info.id === TMAX || info.id === TMIN))
        return this.windowOf(info, cells, axis, info.id === TMAX ? extremes.tmax : extremes.tmin);
      return this.windowOf(info, cells, axis, computeVariable(info.id, blockOf(), axis.i0, axis.n));
    });
  }

  /**
   * Each point's 2 x 2 grid points and weights as pointSeries takes them, the grid rows and
   * columns they name read as one sub-grid, and blended as mixPoint blends, so every value equals
   * the point's own read. A grid point whose weight is zero for every point that names it is not
   * read: its term is zero either way.
   */
  async pointGrid(variables: readonly VariableId[], lats: Float64Array, lons: Float64Array, timeMs: number): Promise<Float32Array[]> {
    for (const lat of lats) checkPoint(lons[0] ?? 0, lat);
    for (const lon of lons) checkPoint(lon, lats[0] ?? 0);
    const rows = Array.from(lats, rowCell);
    const cols = Array.from(lons, columnCells);
    // A pole is one place whatever the longitude: every pixel of a pole row reads the columns of
    // the longitude placeOfPoint reads the pole at (given no longitude, it names only a pole's).
    const poleCols = Array.from(lats, (lat) => {
      const { lon } = placeOfPoint(Number.NaN, lat);
      return Number.isNaN(lon) ? null : columnCells(lon);
    });
    const colAt = gridIndexes([...cols, ...poleCols.filter((p) => p !== null)].flatMap(({ j0, j1, fx }) => (fx > 0 ? [j0, j1] : [j0])));
    const rowAt = gridIndexes(rows.flatMap(({ i0, fy }) => (fy > 0 ? [i0, i0 + 1] : [i0])));
    const windows = await this.subgrid(variables, Float64Array.from(rowAt.keys(), latAt), Float64Array.from(colAt.keys(), lonAt), {
      startMs: timeMs,
      endMs: timeMs,
    });
    const nCols = colAt.size;
    return windows.map((w, k) => {
      if (w.nt === 0) return new Float32Array(0);
      const nearest = isCategorical(variables[k]!);
      const out = new Float32Array(lats.length * lons.length);
      const at = (r: number | undefined, c: number | undefined) => (r === undefined || c === undefined ? 0 : w.values[r * nCols + c]!);
      const weights = new Float64Array(4);
      for (let r = 0, o = 0; r < rows.length; r++) {
        const { i0, fy } = rows[r]!;
        const below = rowAt.get(i0);
        const above = fy > 0 ? rowAt.get(i0 + 1) : undefined;
        const pole = poleCols[r]!;
        for (let c = 0; c < cols.length; c++, o++) {
          const { j0, j1, fx } = pole ?? cols[c]!;
          const west = colAt.get(j0);
          const east = fx > 0 ? colAt.get(j1) : undefined;
          if (nearest) {
            // A category cannot be interpolated: the nearest grid point, as pointSeries takes it.
            out[o] = at(fy < 0.5 ? below : above, fx < 0.5 ? west : east);
          } else {
            // The weights written into one array for every pixel: a new array per pixel was a fifth of a tile's allocations.
            const b = bilinearWeights(fx, fy, weights);
            out[o] = b[0]! * at(below, west) + b[1]! * at(below, east) + b[2]! * at(above, west) + b[3]! * at(above, east);
          }
        }
      }
      return out;
    });
  }

  /**
   * dailyExtremesAt at each point, in one computation over the 2 x 2 grid points of every point
   * (SubgridReads): a batch's points are new places, so they are computed for exactly their days
   * rather than through the point reads' chunks, which would compute whole chunks and push out the
   * kept ones. Each grid point's values are a function of its coordinates and the day, and they are
   * blended as mixPoint blends them, so every point's series equals its own read.
   */
  async dailyExtremesAtPoints(lons: Float64Array, lats: Float64Array, range: TimeRange): Promise<DailyExtremes<PointSeries>[]> {
    if (lons.length !== lats.length)
      throw new GridRequestError('invalid_location', 'a list of points needs as many latitudes as longitudes');
    const points = Array.from(lons, (lon, k) => this.pointCells(lon, lats[k]!));
    const tmaxInfo = this.info(TMAX),
      tminInfo = this.info(TMIN);
    const axis = this.timeAxis(tmaxInfo, range);
    this.checkSize(2 * 4 * axis.n * points.length);
    const { tmax, tmin } =
      axis.n === 0 || points.length === 0
        ? { tmax: new Float32Array(0), tmin: new Float32Array(0) }
        : computeDailyExtremes(pointsBlock(points), axis.i0, axis.n);
    const maxes = mixPoints(tmax, points, axis.n),
      mins = mixPoints(tmin, points, axis.n);
    return points.map((p, k) => ({
      tmax: this.series(tmaxInfo, axis, maxes[k]!, p.lon),
      tmin: this.series(tminInfo, axis, mins[k]!, p.lon),
    }));
  }

  /** Severe-weather events of one kind inside bbox and the time range (see severe.ts). */
  severeEvents<K extends SevereKind>(kind: K, bbox: BBox, range: TimeRange): SevereEvent<K>[] {
    checkBBox(bbox);
    this.checkRange(range);
    return severeEvents(kind, bbox, range);
  }

  /** pointSeries without the promise, for tests and benches that read many series. */
  pointSeriesSync(variable: VariableId, lon: number, lat: number, range: TimeRange): PointSeries {
    const info = this.info(variable);
    const p = this.pointCells(lon, lat);
    const axis = this.timeAxis(info, range);
    this.checkSize(4 * axis.n);
    const field =
      variable === TMAX || variable === TMIN
        ? this.pointDailyExtremes(p, axis)[variable === TMAX ? 'tmax' : 'tmin']
        : info.stepMs === HOUR_MS
          ? this.pointHourlyField(info.id, p, axis)
          : computeVariable(variable, this.pointBlock(p), axis.i0, axis.n);
    if (isCategorical(variable)) {
      // A category cannot be interpolated: take the nearest grid point.
      const k = (p.fy < 0.5 ? 0 : 2) + (p.fx < 0.5 ? 0 : 1);
      const values = new Float32Array(axis.n);
      for (let t = 0; t < axis.n; t++) values[t] = field[4 * t + k]!;
      return this.series(info, axis, values, p.lon);
    }
    return this.series(info, axis, mixPoint(field, p, axis.n), p.lon);
  }

  /** [day][4] daily extremes of the point's grid points, through the chunk cache. */
  private pointDailyExtremes(p: PointCells, axis: TimeAxis): DailyExtremes<Float32Array> {
    return this.pointExtremes.read(p.i, p.j0, p.j1, axis.i0, axis.n, (firstDay, days) =>
      computeDailyExtremes(this.pointBlock(p), firstDay, days),
    );
  }

  /** [hour][4] values of one hourly variable at the point's grid points, through its chunk cache. */
  private pointHourlyField(variable: VariableId, p: PointCells, axis: TimeAxis): Float32Array {
    let cache = this.pointHourly.get(variable);
    if (!cache) this.pointHourly.set(variable, (cache = new PointChunkCache(['values'], HOUR_CHUNK, this.pointHourChunks, HOUR_CHUNK)));
    return cache.read(p.i, p.j0, p.j1, axis.i0, axis.n, (firstHour, hours) => ({
      values: computeVariable(variable, this.pointBlock(p), firstHour, hours),
    })).values;
  }

  /**
   * The block of a point read's 2 x 2 grid points. Its terms are a function of the cells alone
   * and no computation writes to a block, so one is shared by the reads of the same cells.
   */
  private pointBlock(p: PointCells): Block {
    const key = `${p.i}:${p.j0}:${p.j1}`;
    let block = this.pointBlocks.get(key);
    if (block) {
      // Map iteration follows insertion order: re-inserting marks the block most recently used.
      this.pointBlocks.delete(key);
    } else {
      block = makeBlock(p.lats, p.lons);
      if (this.pointBlocks.size >= POINT_BLOCKS) this.pointBlocks.delete(this.pointBlocks.keys().next().value!);
    }
    this.pointBlocks.set(key, block);
    return block;
  }

  private series(info: VariableInfo, axis: TimeAxis, values: Float32Array, lon: number): PointSeries {
    return {
      variable: info.id,
      units: info.units,
      startMs: axis.startMs,
      stepMs: axis.stepMs,
      values,
      ...timeCellField(info),
      productOf: this.productRule(info, axis, lon),
    };
  }

  /** The 2 x 2 grid points around the place of (lon, lat) (placeOfPoint) with its bilinear weights (grid-source.ts). */
  private pointCells(lon: number, lat: number): PointCells {
    checkPoint(lon, lat);
    const place = placeOfPoint(lon, lat);
    const { i0, fy } = rowCell(place.lat);
    const { j0, j1, fx } = columnCells(place.lon);
    return {
      lon: place.lon,
      i: i0,
      j0,
      j1,
      lats: Float64Array.of(latAt(i0), latAt(i0 + 1)),
      lons: Float64Array.of(lonAt(j0), lonAt(j1)),
      fx,
      fy,
      weights: bilinearWeights(fx, fy, [0, 0, 0, 0]),
    };
  }

  /** window without the promise. */
  windowSync(variable: VariableId, bbox: BBox, range: TimeRange): GridWindow {
    const info = this.info(variable);
    const cells = cellsIn(bbox);
    const axis = this.timeAxis(info, range);
    return this.compute(info, cells, axis);
  }

  /** slice without the promise: the step at or before timeMs. */
  sliceSync(variable: VariableId, bbox: BBox, timeMs: number): GridWindow {
    const info = this.info(variable);
    const cells = cellsIn(bbox);
    if (!Number.isFinite(timeMs)) throw new GridRequestError('out_of_coverage', `time ${timeMs} is not a valid instant`);
    let axis: TimeAxis;
    if (info.stepMs === 0) {
      axis = { i0: 0, n: 1, startMs: timeMs, stepMs: 0 };
    } else {
      const i = Math.floor(timeMs / info.stepMs);
      const t = i * info.stepMs;
      const cov = this.coverage();
      if (t < cov.startMs || t > cov.endMs) {
        throw new GridRequestError('out_of_coverage', `${info.id}: ${iso(timeMs)} is outside ${iso(cov.startMs)}..${iso(cov.endMs)}`);
      }
      axis = { i0: i, n: 1, startMs: t, stepMs: info.stepMs };
    }
    return this.compute(info, cells, axis);
  }

  private compute(info: VariableInfo, cells: { lats: Float64Array; lons: Float64Array }, axis: TimeAxis): GridWindow {
    const nCells = cells.lats.length * cells.lons.length;
    this.checkSize(nCells * axis.n);
    const values =
      nCells === 0 || axis.n === 0 ? new Float32Array(0) : computeVariable(info.id, makeBlock(cells.lats, cells.lons), axis.i0, axis.n);
    return this.windowOf(info, cells, axis, values);
  }

  private windowOf(
    info: VariableInfo,
    cells: { lats: Float64Array; lons: Float64Array },
    axis: TimeAxis,
    values: Float32Array,
  ): GridWindow {
    return {
      variable: info.id,
      units: info.units,
      lats: cells.lats,
      lons: cells.lons,
      dLat: SYNTHETIC_GRID.dLat,
      dLon: SYNTHETIC_GRID.dLon,
      startMs: axis.startMs,
      stepMs: axis.stepMs,
      nt: axis.n,
      values,
      ...timeCellField(info),
      // The westernmost column's local day ends last, so it decides for daily values.
      productOf: this.productRule(info, axis, cells.lons.length > 0 ? (cells.lons[0] as number) : 0),
    };
  }

  private info(variable: VariableId): VariableInfo {
    const info = syntheticVariable(variable);
    if (!info) throw new GridRequestError('unknown_variable', `the synthetic source has no variable ${String(variable)}`);
    return info;
  }

  private timeAxis(info: VariableInfo, range: TimeRange): TimeAxis {
    if (info.stepMs === 0) return { i0: 0, n: 1, startMs: range.startMs, stepMs: 0 };
    this.checkRange(range);
    const step = info.stepMs;
    const i0 = Math.ceil(range.startMs / step);
    const i1 = Math.floor(range.endMs / step);
    const n = Math.max(0, i1 - i0 + 1);
    return { i0, n, startMs: i0 * step, stepMs: step };
  }

  private checkRange(range: TimeRange): void {
    const cov = this.coverage();
    const { startMs, endMs } = range;
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || startMs > endMs) {
      throw new GridRequestError('out_of_coverage', `time range ${iso(startMs)}..${iso(endMs)} is not a valid range`);
    }
    if (startMs < cov.startMs || endMs > cov.endMs) {
      throw new GridRequestError(
        'out_of_coverage',
        `time range ${iso(startMs)}..${iso(endMs)} is outside the synthetic coverage ${iso(cov.startMs)}..${iso(cov.endMs)}`,
      );
    }
  }

  private checkSize(values: number): void {
    if (values > this.maxValues) {
      throw new GridRequestError('too_large', `the request needs ${values} values; the limit is ${this.maxValues}`);
    }
  }

  /**
   * Which product supplied step i. Hourly: analysis up to the forecast boundary. Daily: analysis
   * only when every hourly sample of the local solar day (at longitude `lon`) is. Static: analysis.
   */
  private productRule(info: VariableInfo, axis: TimeAxis, lon: number): (i: number) => string {
    const boundary = this.forecastBoundary();
    const { analysis, forecast } = this;
    if (info.stepMs === 0) return () => analysis;
    if (info.stepMs === HOUR_MS) return (i) => (axis.startMs + i * HOUR_MS <= boundary ? analysis : forecast);
    const off = lon / 15;
    return (i) => {
      const lastSampleHour = Math.ceil(24 * (axis.i0 + i + 1) - off) - 1;
      return lastSampleHour * HOUR_MS <= boundary ? analysis : forecast;
    };
  }
}

/** Validates a bbox and lists the cell centres inside it (edges inclusive). */
function cellsIn(bbox: BBox): { lats: Float64Array; lons: Float64Array } {
  checkBBox(bbox);
  const [w, s, e, n] = bbox;
  const i0 = Math.max(0, Math.ceil((s + 90) * PER_DEG - EDGE_EPS));
  const i1 = Math.min(SYNTHETIC_GRID.nLat - 1, Math.floor((n + 90) * PER_DEG + EDGE_EPS));
  const j0 = Math.max(0, Math.ceil((w + 180) * PER_DEG - EDGE_EPS));
  const j1 = Math.min(SYNTHETIC_GRID.nLon - 1, Math.floor((e + 180) * PER_DEG + EDGE_EPS));
  const lats = new Float64Array(Math.max(0, i1 - i0 + 1));
  const lons = new Float64Array(Math.max(0, j1 - j0 + 1));
  for (let i = 0; i < lats.length; i++) lats[i] = latAt(i0 + i);
  for (let j = 0; j < lons.length; j++) lons[j] = lonAt(j0 + j);
  return { lats, lons };
}

/**
 * The grid coordinates nearest to each of `coords` (ascending, inside -limit..limit), as exact
 * decimals: (index - offset) / PER_DEG, clamped to the grid's `count` points.
 */
function gridAxis(coords: Float64Array, what: string, limit: number, offset: number, count: number): Float64Array {
  const out = new Float64Array(coords.length);
  for (let k = 0; k < coords.length; k++) {
    const c = coords[k]!;
    if (!Number.isFinite(c) || c < -limit || c > limit || (k > 0 && c < coords[k - 1]!)) {
      throw new GridRequestError('invalid_location', `the ${what}s of a sub-grid must be ascending numbers in -${limit}..${limit}`);
    }
    out[k] = (Math.min(count - 1, Math.max(0, Math.round((c + limit) * PER_DEG))) - offset) / PER_DEG;
  }
  return out;
}

function checkPoint(lon: number, lat: number): void {
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180) {
    throw new GridRequestError('invalid_location', `point (${lon}, ${lat}) must have longitude in -180..180 and latitude in -90..90`);
  }
}

/** The distinct grid indexes, ascending, each mapped to its position among them. */
function gridIndexes(indexes: number[]): Map<number, number> {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  return new Map(sorted.map((index, position) => [index, position]));
}

function checkBBox(bbox: BBox): void {
  const ok =
    Array.isArray(bbox) &&
    bbox.length === 4 &&
    bbox.every((v) => Number.isFinite(v)) &&
    bbox[0] >= -180 &&
    bbox[2] <= 180 &&
    bbox[0] <= bbox[2] &&
    bbox[1] >= -90 &&
    bbox[3] <= 90 &&
    bbox[1] <= bbox[3];
  if (!ok) {
    throw new GridRequestError(
      'invalid_bbox',
      `bbox [${String(bbox)}] must be [west, south, east, north] with -180 <= west <= east <= 180 and -90 <= south <= north <= 90`,
    );
  }
}

interface PointCells {
  /** the longitude read (placeOfPoint), whose local solar day a daily value's product follows */
  lon: number;
  /** grid rows i, i + 1 and columns j0, j1 */
  i: number;
  j0: number;
  j1: number;
  /** their latitudes and longitudes */
  lats: Float64Array;
  lons: Float64Array;
  fx: number;
  fy: number;
  /** bilinear weights of the block's four cells, row-major */
  weights: [number, number, number, number];
}

/** One block of the 2 x 2 grid points of each point, in the points' order: cells 4k .. 4k + 3 are point k's, row-major. */
function pointsBlock(points: readonly PointCells[]): Block {
  const lats = Float64Array.from(points.flatMap((p) => [p.lats[0]!, p.lats[0]!, p.lats[1]!, p.lats[1]!]));
  const lons = Float64Array.from(points.flatMap((p) => [p.lons[0]!, p.lons[1]!, p.lons[0]!, p.lons[1]!]));
  return makeCellBlock(lats, lons);
}

/** The point's series from a [t][4] field of its 2 x 2 grid points: bilinear in space. */
function mixPoint(field: Float32Array, p: PointCells, n: number): Float32Array {
  const values = new Float32Array(n);
  for (let t = 0; t < n; t++) values[t] = mixed(field, 4 * t, p.weights);
  return values;
}

/**
 * Each point's series from a [t][cell] field of a points block (pointsBlock: point k's 2 x 2 grid
 * points are cells 4k .. 4k + 3), blended as mixPoint blends. The field is read once in memory
 * order: a point's own cells are a block's width apart from one step to the next, so reading
 * them point by point would miss the cache at every step of every point.
 */
function mixPoints(field: Float32Array, points: readonly PointCells[], n: number): Float32Array[] {
  const out = points.map(() => new Float32Array(n));
  const nCells = 4 * points.length;
  for (let t = 0; t < n; t++) for (let k = 0; k < points.length; k++) out[k]![t] = mixed(field, t * nCells + 4 * k, points[k]!.weights);
  return out;
}

/** The bilinear blend of the four grid points' values at field[o .. o + 3] (00, 01, 10, 11) with the point's weights. */
function mixed(field: Float32Array, o: number, w: readonly [number, number, number, number]): number {
  return w[0] * field[o]! + w[1] * field[o + 1]! + w[2] * field[o + 2]! + w[3] * field[o + 3]!;
}

function mapEtInputs<T>(read: (key: keyof EtInputs<unknown>) => T): EtInputs<T> {
  return Object.fromEntries(ET_INPUT_KEYS.map((k) => [k, read(k)])) as unknown as EtInputs<T>;
}
