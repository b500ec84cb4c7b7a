/**
 * SyntheticSource: the embedded default GridSource (DESIGN.md section 6). A procedural,
 * deterministic, global world on a 0.01 degree grid, from 2015-01-01T00:00Z to 16 days after the
 * current hour, with no storage. Values at a grid point are a function of (lat, lon, time) only,
 * so every process and every request shape gives the same numbers.
 */
import { SYNTHETIC_ANALYSIS_PRODUCT, SYNTHETIC_FORECAST_PRODUCT, SYNTHETIC_SOURCE_ID } from '../catalog/sources.js';
import {
  type BBox,
  forecastBoundaryMs,
  type GridSource,
  type GridSpec,
  GridRequestError,
  type GridWindow,
  type PointSeries,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '../grid-source.js';
import { type Block, makeBlock } from './block.js';
import { DAY_MS, HOUR_MS } from './calendar.js';
import { computeDailyExtremes, computeField } from './fields.js';
import { quadDailyExtremes } from './quad-extremes.js';
import { isQuadHourly, quadHourlySeries, quadTemperaturePair } from './quad-hourly.js';
import { anchorDaysForDays } from './temperature.js';
import { type SevereEvent, type SevereKind, severeEvents } from './severe.js';
import { SYNTHETIC_VARIABLES, syntheticVariable } from './variables.js';

/** First instant the synthetic world covers (spec 4.1: degree days from the start of 2015). */
export const SYNTHETIC_START_MS = Date.UTC(2015, 0, 1);

/** How far past the current hour the synthetic forecast reaches, days. */
export const SYNTHETIC_HORIZON_DAYS = 16;

/** The native grid: 0.01 degree cell centres from -90/-180 (lon 180 is the same as -180). */
export const SYNTHETIC_GRID: GridSpec = { lat0: -90, lon0: -180, dLat: 0.01, dLon: 0.01, nLat: 18001, nLon: 36000 };

const TMAX: VariableId = 'air_temperature_daily_max';
const TMIN: VariableId = 'air_temperature_daily_min';

/** Cells per degree; coordinates are computed as (index - offset) / 100 so they are exact decimals. */
const PER_DEG = 100;
const LAT_OFFSET = 9000;
const LON_OFFSET = 18000;
/** Tolerance when deciding whether a cell centre lies on a bbox edge, in cells. */
const EDGE_EPS = 1e-7;

export interface SyntheticSourceOptions {
  /** wall clock, epoch ms; sets the coverage end and the analysis/forecast boundary (default Date.now) */
  now?: () => number;
  /** most values one request may produce (default 50 million, 200 MB of float32) */
  maxValues?: number;
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

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

export class SyntheticSource implements GridSource {
  readonly id = SYNTHETIC_SOURCE_ID;
  readonly label = SYNTHETIC_SOURCE_ID;
  readonly grid = SYNTHETIC_GRID;
  private readonly now: () => number;
  private readonly maxValues: number;
  private readonly analysis: string;
  private readonly forecast: string;
  /**
   * The series computed alongside the last one asked for (pointSeriesSync for Tmax also yields
   * Tmin at the same point, and hourly air temperature also yields dewpoint, and the reverse): a
   * caller reading both through the GridSource interface pays for one pass. Values only (no
   * product labels, which depend on the clock), one entry.
   */
  private pending: { variable: VariableId; lon: number; lat: number; i0: number; n: number; values: Float32Array } | null = null;

  constructor(options: SyntheticSourceOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxValues = options.maxValues ?? 50_000_000;
    this.analysis = options.analysisProduct ?? SYNTHETIC_ANALYSIS_PRODUCT;
    this.forecast = options.forecastProduct ?? SYNTHETIC_FORECAST_PRODUCT;
  }

  coverage(): TimeRange {
    return { startMs: SYNTHETIC_START_MS, endMs: forecastBoundaryMs(this.now()) + SYNTHETIC_HORIZON_DAYS * DAY_MS };
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

  /** Severe-weather events of one kind inside bbox and the time range (see severe.ts). */
  severeEvents<K extends SevereKind>(kind: K, bbox: BBox, range: TimeRange): SevereEvent<K>[] {
    checkBBox(bbox);
    this.checkRange(range);
    return severeEvents(kind, bbox, range);
  }

  /** Synchronous pointSeries, for callers in hot loops. */
  pointSeriesSync(variable: VariableId, lon: number, lat: number, range: TimeRange): PointSeries {
    const info = this.info(variable);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180) {
      throw new GridRequestError('invalid_location', `point (${lon}, ${lat}) must have longitude in -180..180 and latitude in -90..90`);
    }
    const axis = this.timeAxis(info, range);
    this.checkSize(4 * axis.n);
    const y = (lat + 90) * PER_DEG;
    let i0 = Math.floor(y);
    let fy = y - i0;
    if (i0 >= SYNTHETIC_GRID.nLat - 1) {
      i0 = SYNTHETIC_GRID.nLat - 2;
      fy = 1;
    }
    const x = (lon + 180) * PER_DEG;
    const j = Math.floor(x);
    const fx = x - j;
    const nLon = SYNTHETIC_GRID.nLon;
    const j0 = j % nLon, j1 = (j + 1) % nLon;
    const w00 = (1 - fy) * (1 - fx), w01 = (1 - fy) * fx, w10 = fy * (1 - fx), w11 = fy * fx;
    const daily = variable === TMAX || variable === TMIN;
    const hourlyPair = variable === 'air_temperature' || variable === 'dew_point_temperature';
    const pending = daily || hourlyPair ? this.takePending(variable, lon, lat, axis) : null;
    if (pending) return this.series(info, axis, pending, lon);
    const block = this.quadBlock(i0, j0, j1);
    if (daily) {
      // Both extremes come from one pass; the other is kept for a caller that asks for it next.
      return this.series(info, axis, this.quadExtremes(variable, block, axis, [w00, w01, w10, w11], lon, lat), lon);
    }
    if (hourlyPair) {
      // Air temperature and dewpoint share their anchors and curve: one pass gives both, and the
      // other is kept for a caller that asks for it next (the ET inputs ask for both).
      const pair = quadTemperaturePair(block, axis.i0, axis.n, [w00, w01, w10, w11]);
      const dew = variable === 'dew_point_temperature';
      this.pending = { variable: dew ? 'air_temperature' : 'dew_point_temperature', lon, lat, i0: axis.i0, n: axis.n, values: dew ? pair.air : pair.dew };
      return this.series(info, axis, dew ? pair.dew : pair.air, lon);
    }
    if (isQuadHourly(variable)) {
      // The ET inputs: one fused 2 x 2 pass per variable, mixed as it goes (quad-hourly.ts).
      return this.series(info, axis, quadHourlySeries(variable, block, axis.i0, axis.n, [w00, w01, w10, w11]), lon);
    }
    const field = computeField(variable, block, axis.i0, axis.n);
    const values = new Float32Array(axis.n);
    if (variable === 'precipitation_type') {
      // A category cannot be interpolated: take the nearest grid point.
      const k = (fy < 0.5 ? 0 : 2) + (fx < 0.5 ? 0 : 1);
      for (let t = 0; t < axis.n; t++) values[t] = field[4 * t + k] as number;
    } else {
      for (let t = 0, o = 0; t < axis.n; t++, o += 4) {
        values[t] = w00 * (field[o] as number) + w01 * (field[o + 1] as number) + w10 * (field[o + 2] as number) + w11 * (field[o + 3] as number);
      }
    }
    return this.series(info, axis, values, lon);
  }

  /**
   * Daily maximum and minimum temperature at a point (bilinear between the four grid points, as
   * pointSeriesSync) from one shared pass: the same values as two pointSeriesSync calls for
   * air_temperature_daily_max and air_temperature_daily_min, at about the cost of one.
   */
  dailyExtremesSync(lon: number, lat: number, range: TimeRange): { tmax: PointSeries; tmin: PointSeries } {
    const tmax = this.pointSeriesSync(TMAX, lon, lat, range);
    return { tmax, tmin: this.pointSeriesSync(TMIN, lon, lat, range) };
  }

  /**
   * Window reads of daily maximum and minimum over the same cells and days from one set of
   * anchors: the same values as windowSync for each, at a little more than the cost of one.
   */
  windowExtremesSync(bbox: BBox, range: TimeRange): { tmax: GridWindow; tmin: GridWindow } {
    const maxInfo = this.info(TMAX), minInfo = this.info(TMIN);
    const cells = cellsIn(bbox);
    const axis = this.timeAxis(maxInfo, range);
    const nCells = cells.lats.length * cells.lons.length;
    this.checkSize(2 * nCells * axis.n);
    const [max, min] = nCells === 0 || axis.n === 0 ? [new Float32Array(0), new Float32Array(0)] : computeDailyExtremes(makeBlock(cells.lats, cells.lons), axis.i0, axis.n);
    return { tmax: this.windowOf(maxInfo, cells, axis, max), tmin: this.windowOf(minInfo, cells, axis, min) };
  }

  private series(info: VariableInfo, axis: TimeAxis, values: Float32Array, lon: number): PointSeries {
    return { variable: info.id, units: info.units, startMs: axis.startMs, stepMs: axis.stepMs, values, productOf: this.productRule(info, axis, lon) };
  }

  /** The 2 x 2 block of the last point series (see quadBlock). */
  private lastBlock: { i0: number; j0: number; j1: number; block: Block } | null = null;

  /**
   * The 2 x 2 block of grid rows i0, i0 + 1 and columns j0, j1, kept for the next request: the ET
   * inputs are five series at one point, and a block's terrain is six noise octaves per cell.
   * Blocks are never written after they are made, so keeping one never changes a result.
   */
  private quadBlock(i0: number, j0: number, j1: number): Block {
    const last = this.lastBlock;
    if (last && last.i0 === i0 && last.j0 === j0 && last.j1 === j1) return last.block;
    const block = makeBlock(Float64Array.of(latAt(i0), latAt(i0 + 1)), Float64Array.of(lonAt(j0), lonAt(j1)));
    this.lastBlock = { i0, j0, j1, block };
    return block;
  }

  /** Both daily extremes at a point; returns the requested one and keeps the other pending. */
  private quadExtremes(variable: VariableId, block: Block, axis: TimeAxis, weights: readonly [number, number, number, number], lon: number, lat: number): Float32Array {
    const span = anchorDaysForDays(axis.i0, axis.n);
    const max = new Float32Array(axis.n), min = new Float32Array(axis.n);
    quadDailyExtremes(block, span.d0, span.nDays, weights, max, min);
    const other: VariableId = variable === TMAX ? TMIN : TMAX;
    this.pending = { variable: other, lon, lat, i0: axis.i0, n: axis.n, values: variable === TMAX ? min : max };
    return variable === TMAX ? max : min;
  }

  /**
   * The pending other series, if it is exactly this request (same variable, point and time
   * steps); handed over once, so no array is shared between two results.
   */
  private takePending(variable: VariableId, lon: number, lat: number, axis: TimeAxis): Float32Array | null {
    const p = this.pending;
    if (!p || p.variable !== variable || p.lon !== lon || p.lat !== lat || p.i0 !== axis.i0 || p.n !== axis.n) return null;
    this.pending = null;
    return p.values;
  }

  /** Synchronous window. */
  windowSync(variable: VariableId, bbox: BBox, range: TimeRange): GridWindow {
    const info = this.info(variable);
    const cells = cellsIn(bbox);
    const axis = this.timeAxis(info, range);
    return this.compute(info, cells, axis);
  }

  /** Synchronous slice: the step at or before timeMs. */
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
    const values = nCells === 0 || axis.n === 0 ? new Float32Array(0) : computeField(info.id, makeBlock(cells.lats, cells.lons), axis.i0, axis.n);
    return this.windowOf(info, cells, axis, values);
  }

  private windowOf(info: VariableInfo, cells: { lats: Float64Array; lons: Float64Array }, axis: TimeAxis, values: Float32Array): GridWindow {
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
      throw new GridRequestError('out_of_coverage', `time range ${iso(startMs)}..${iso(endMs)} is outside the synthetic coverage ${iso(cov.startMs)}..${iso(cov.endMs)}`);
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
    throw new GridRequestError('invalid_bbox', `bbox [${String(bbox)}] must be [west, south, east, north] with -180 <= west <= east <= 180 and -90 <= south <= north <= 90`);
  }
}
