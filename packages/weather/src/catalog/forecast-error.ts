/**
 * The forecast error of a run (docs/decisions/0141-forecast-error-model.md): a run's value is the
 * synthetic world's value at the valid time plus a deterministic error that is zero at lead 0,
 * grows with lead time, and is drawn afresh for every run, so two runs disagree about the same
 * valid time while each agrees with the analysis at its init time.
 *
 *   g(h) = 1 - exp(-h / 120 h)                  growth with lead time h (zero at h = 0)
 *   n    = smooth noise of unit variance over (latitude, longitude, lead), on a lattice of
 *          5 degrees and 12 hours, seeded by the model, the init time and the error stream
 *   additive:       forecast = truth + s g n
 *   multiplicative: forecast = truth exp(s g n)   (keeps zero and the sign: rates, speeds)
 *                   shortwave: at most max(truth, clear sky at sea level), clearSkyCeiling
 *   dewpoint:       forecast = T_forecast - (T - Td) exp(s g n)   (never above the temperature)
 *
 * One implementation for the model area's time series at a point (`forecastValues`) and for a
 * product's forecast frame over a tile's or a datapoint's places (`forecastGrid`): a frame of a
 * product's run is that model's run (docs/decisions/0496-product-runs-are-a-models-runs.md), and
 * both compute every value with the same operations in the same order, so they agree to the bit.
 */
import { ET_INPUT_VARIABLES, placeOfPoint, type VariableId } from '../grid/grid-source.js';
import {
  clearSkyRadiation,
  type Daylight,
  daylight,
  extraterrestrialRadiationPeriod,
  hourAngle,
  hourPeriod,
  MJ_PER_HOUR_TO_W,
  type SolarDay,
  solarDay,
  type SolarPeriod,
  sunsetHourAngle,
} from '../synthetic/solar.js';
import type { FrameRef } from './product-frames.js';
import { productRunModel } from './product-runs.js';
import type { ModelDef } from './schema.js';

/** e-folding lead time of the error's growth, hours. */
export const ERROR_GROWTH_HOURS = 120;
const LATTICE_DEGREES = 5;
const LATTICE_HOURS = 12;
const LON_CELLS = 360 / LATTICE_DEGREES;
const HOUR_MS = 3_600_000;

/** How a variable's error is applied, and its scale once fully grown. */
export type ErrorRule =
  | { kind: 'additive'; scale: number; stream: string }
  /** `atMost: 'clear-sky'`: never above clearSkyCeiling (a flux the sun bounds) */
  | { kind: 'multiplicative'; scale: number; stream: string; atMost?: 'clear-sky' }
  /** the dewpoint: the temperature's additive error, and the dewpoint depression scaled */
  | { kind: 'depression'; scale: number; stream: string; temperature: { scale: number; stream: string } }
  | { kind: 'none' };

/** The run whose error a value carries: the model's name and the init time seed it. */
export interface ErrorRun {
  model: string;
  initMs: number;
}

/**
 * The run whose error a catalog product's frame carries: for a forecast frame, the run at its
 * init time of the model whose runs the product's are (productRunModel); null for an analysis
 * frame or a product whose runs no model runs. A synced source's frame is its store's values, with
 * no error (docs/decisions/0255-synced-runs-as-models.md): its callers do not ask.
 */
export function frameErrorRun(frame: Pick<FrameRef, 'product' | 'run'>, models: readonly ModelDef[]): ErrorRun | null {
  if (!frame.run) return null;
  const model = productRunModel(frame.product, models);
  return model && { model: model.name, initMs: frame.run.initMs };
}

const TEMPERATURE = { scale: 3, stream: 'air_temperature' };

/**
 * Error rules by weather variable (docs/decisions/0141-forecast-error-model.md). Scales are the
 * error's standard deviation at long lead in the variable's unit (additive) or of its logarithm
 * (multiplicative). Categorical and astronomical variables have no error.
 */
export const ERROR_RULES: Readonly<Record<VariableId, ErrorRule>> = {
  air_temperature: { kind: 'additive', ...TEMPERATURE },
  air_temperature_daily_max: { kind: 'additive', ...TEMPERATURE },
  air_temperature_daily_min: { kind: 'additive', ...TEMPERATURE },
  dew_point_temperature: { kind: 'depression', scale: 0.4, stream: 'dew_point_depression', temperature: TEMPERATURE },
  wind_speed: { kind: 'multiplicative', scale: 0.35, stream: 'wind_speed' },
  surface_air_pressure: { kind: 'additive', scale: 0.8, stream: 'surface_air_pressure' },
  precipitation_rate: { kind: 'multiplicative', scale: 0.9, stream: 'precipitation_rate' },
  surface_downwelling_shortwave_flux_in_air: { kind: 'multiplicative', scale: 0.3, stream: 'shortwave', atMost: 'clear-sky' },
  surface_downwelling_shortwave_flux_in_air_assuming_clear_sky: { kind: 'none' },
  precipitation_type: { kind: 'none' },
  surface_altitude: { kind: 'none' },
};

/** Growth of the error with lead time in hours: 0 at lead 0, towards 1 at long leads. */
export function errorGrowth(leadHours: number): number {
  return 1 - Math.exp(-leadHours / ERROR_GROWTH_HOURS);
}

/** FNV-1a of a string: the seed of one error stream of one run. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const seedOfStream = (key: { model: string; initMs: number; stream: string }) => seedOf(`${key.model}:${key.initMs}:${key.stream}`);

/** A 32-bit integer hash of a seed and three lattice indices (murmur3's finaliser). */
function hash(seed: number, i: number, j: number, k: number): number {
  let h = seed ^ Math.imul(i, 0x27d4eb2d) ^ Math.imul(j, 0x165667b1) ^ Math.imul(k, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A lattice value of unit variance: the sum of three uniforms on [-1, 1] (each of variance 1/3). */
function latticeValue(seed: number, i: number, j: number, k: number): number {
  const h = hash(seed, i, j, k);
  return ((h & 0x3ff) + ((h >>> 10) & 0x3ff) + ((h >>> 20) & 0x3ff)) / 511.5 - 3;
}

const smooth = (t: number) => t * t * (3 - 2 * t);

/** Where a latitude lies between lattice rows: the row south of it and the smoothstep weight of the next. */
interface Axis {
  i0: number;
  w: number;
}

function latAxis(lat: number): Axis {
  const y = (lat + 90) / LATTICE_DEGREES;
  const i0 = Math.floor(y);
  return { i0, w: smooth(y - i0) };
}

function lonAxis(lon: number): Axis {
  const x = ((((lon + 180) % 360) + 360) % 360) / LATTICE_DEGREES;
  const j0 = Math.floor(x);
  return { i0: j0, w: smooth(x - j0) };
}

/** Where a lead lies between lattice hours. */
function leadAxis(leadHours: number): Axis {
  const z = leadHours / LATTICE_HOURS;
  const k0 = Math.floor(z);
  return { i0: k0, w: smooth(z - k0) };
}

/**
 * The noise between four lattice nodes of one lead step: west-east, then south-north. Every
 * caller blends in this one order, so a point and a grid of points give the same doubles.
 */
function between(southWest: number, southEast: number, northWest: number, northEast: number, wx: number, wy: number): number {
  const south = southWest * (1 - wx) + southEast * wx;
  const north = northWest * (1 - wx) + northEast * wx;
  return south * (1 - wy) + north * wy;
}

const inTime = (early: number, late: number, wz: number) => early * (1 - wz) + late * wz;

/**
 * The noise n of one error stream of one run at a point, at each lead (hours) in `leads`:
 * smooth (smoothstep between lattice nodes) in space and lead time; errorNoiseAt at each lead.
 */
export function errorNoise(
  streamKey: { model: string; initMs: number; stream: string },
  latitude: number,
  longitude: number,
  leads: readonly number[],
): Float64Array {
  return Float64Array.from(leads, (lead) => errorNoiseAt(streamKey, lead)(latitude, longitude));
}

/**
 * The noise n of one error stream of one run at one lead over the points lats x lons (row-major,
 * the first latitude's longitudes first): what errorNoise gives at each of them, computed once
 * per row and column (their lattice cells and weights) and once per lattice node the points
 * span, never per point from the seed.
 */
export function errorNoiseGrid(
  streamKey: { model: string; initMs: number; stream: string },
  lats: ArrayLike<number>,
  lons: ArrayLike<number>,
  leadHours: number,
): Float64Array {
  const seed = seedOfStream(streamKey);
  const { i0: k0, w: wz } = leadAxis(leadHours);
  const columns = Array.from({ length: lons.length }, (_, c) => lonAxis(placeOfPoint(lons[c] as number, 0).lon));
  // A pole is one place, at longitude 0 (placeOfPoint).
  const poleColumn = lonAxis(0);
  const rows = Array.from({ length: lats.length }, (_, r) => latAxis(lats[r] as number));
  let iLo = Infinity;
  let iHi = -Infinity;
  for (const row of rows) {
    iLo = Math.min(iLo, row.i0);
    iHi = Math.max(iHi, row.i0 + 1);
  }
  // Node values of the two lead steps, by lattice row from iLo and every lattice column.
  const nodeRows = Math.max(0, iHi - iLo + 1);
  const early = new Float64Array(nodeRows * LON_CELLS);
  const late = new Float64Array(nodeRows * LON_CELLS);
  for (let i = 0; i < nodeRows; i++) {
    for (let j = 0; j < LON_CELLS; j++) {
      early[i * LON_CELLS + j] = latticeValue(seed, iLo + i, j, k0);
      late[i * LON_CELLS + j] = latticeValue(seed, iLo + i, j, k0 + 1);
    }
  }
  const out = new Float64Array(lats.length * lons.length);
  for (let r = 0; r < rows.length; r++) {
    const { i0, w: wy } = rows[r]!;
    const lat = lats[r] as number;
    const polar = lat === 90 || lat === -90;
    const south = (i0 - iLo) * LON_CELLS;
    const north = south + LON_CELLS;
    for (let c = 0; c < columns.length; c++) {
      const { i0: j0, w: wx } = polar ? poleColumn : columns[c]!;
      const j1 = (j0 + 1) % LON_CELLS;
      const e = between(early[south + j0]!, early[south + j1]!, early[north + j0]!, early[north + j1]!, wx, wy);
      const l = between(late[south + j0]!, late[south + j1]!, late[north + j0]!, late[north + j1]!, wx, wy);
      out[r * columns.length + c] = inTime(e, l, wz);
    }
  }
  return out;
}

/**
 * The noise n of one error stream of one run at one lead, as a function of a point, each lattice
 * node's value computed once however many points lie around it (for readers that meet their
 * points one at a time, such as a tile's derived layers). The point is taken at its place's
 * coordinates, as the weather reads it (placeOfPoint): a pole has one error whatever the
 * longitude a request names.
 */
export function errorNoiseAt(
  streamKey: { model: string; initMs: number; stream: string },
  leadHours: number,
): (latitude: number, longitude: number) => number {
  const seed = seedOfStream(streamKey);
  const { i0: k0, w: wz } = leadAxis(leadHours);
  const nodes = new Map<number, number>();
  const node = (i: number, j: number, k: number): number => {
    const key = (i * LON_CELLS + j) * 2 + (k - k0);
    let v = nodes.get(key);
    if (v === undefined) nodes.set(key, (v = latticeValue(seed, i, j, k)));
    return v;
  };
  return (latitude, longitude) => {
    const place = placeOfPoint(longitude, latitude);
    const { i0, w: wy } = latAxis(place.lat);
    const { i0: j0, w: wx } = lonAxis(place.lon);
    const j1 = (j0 + 1) % LON_CELLS;
    const at = (k: number) => between(node(i0, j0, k), node(i0, j1, k), node(i0 + 1, j0, k), node(i0 + 1, j1, k), wx, wy);
    return inTime(at(k0), at(k0 + 1), wz);
  };
}

/** The truth a rule needs: the variable's own series, and for the dewpoint the temperature's. */
export interface Truth {
  values: ArrayLike<number>;
  temperature?: ArrayLike<number>;
}

const DAY_MS = 24 * HOUR_MS;

const DEG = Math.PI / 180;

/** Rso per Ra at sea level (ASCE-EWRI 2005 eq. 47), W m-2 per MJ m-2 h-1. */
const SEA_LEVEL_CLEAR_SKY = clearSkyRadiation(MJ_PER_HOUR_TO_W, 0);

/** A valid time's part of clearSkyCeiling: its UTC day's solar terms and the stamp's clock. */
interface CeilingSun {
  day: SolarDay;
  /** the stamp's UTC hour of its day, the clock t of the hour angle (eq. 55) */
  hours: number;
}

function ceilingSun(validMs: number): CeilingSun {
  const day = Math.floor(validMs / DAY_MS);
  return { day: solarDay(day), hours: (validMs - day * DAY_MS) / HOUR_MS };
}

/** A place's latitude's part of clearSkyCeiling: its sine, cosine and daylight (eq. 27). */
interface CeilingRow {
  sinLat: number;
  cosLat: number;
  daylight: Daylight;
}

const ceilingRow = (sun: CeilingSun, lat: number): CeilingRow => ({
  sinLat: Math.sin(lat * DEG),
  cosLat: Math.cos(lat * DEG),
  daylight: daylight(sunsetHourAngle(lat, sun.day.declination)),
});

/** A place's longitude's part of clearSkyCeiling: the hour centred on the stamp, in hour angles (eq. 55). */
const ceilingColumn = (sun: CeilingSun, lon: number): SolarPeriod => hourPeriod(hourAngle(sun.hours, lon, sun.day.sc));

/**
 * The most a run forecasts of a shortwave flux at a place and hour, W m-2: clear sky at sea level,
 * 0.75 Ra of the hour centred on the stamp (ASCE-EWRI 2005 eqs. 47-48), by the formula the
 * synthetic world's clear sky takes (synthetic/radiation.ts). A multiplicative error could
 * otherwise carry a cloud-thinned flux past what the sun delivers (1,570 W m-2 at 5 N in December,
 * against an Ra of about 1,220). Above sea level, where clear sky is more (2e-5 a metre), the
 * truth, which never exceeds its own clear sky, is the ceiling where it is higher (withError), so
 * lead 0 stays the truth.
 *
 * From the parts of the valid time, the place's latitude and its longitude, so a grid computes
 * each once (forecastGrid) and a point the same doubles (clearSkyCeilingAt).
 */
const clearSkyCeiling = (sun: CeilingSun, row: CeilingRow, column: SolarPeriod): number =>
  SEA_LEVEL_CLEAR_SKY *
  extraterrestrialRadiationPeriod(row.sinLat, row.cosLat, sun.day.sinDecl, sun.day.cosDecl, sun.day.dr, column, row.daylight);

/** clearSkyCeiling at a point, taken at its place (placeOfPoint: a pole is one place, at longitude 0). */
function clearSkyCeilingAt(sun: CeilingSun, latitude: number, longitude: number): number {
  const place = placeOfPoint(longitude, latitude);
  return clearSkyCeiling(sun, ceilingRow(sun, place.lat), ceilingColumn(sun, place.lon));
}

/** Whether a rule's ceiling is clearSkyCeiling; any other's is Infinity. */
const capsAtClearSky = (rule: ErrorRule): boolean => rule.kind === 'multiplicative' && rule.atMost === 'clear-sky';

/**
 * One forecast value from its truth `v` (and the temperature's `t` for the dewpoint), the growth
 * g, the noises of the rule's streams and the rule's ceiling there (clearSkyCeiling, or Infinity):
 * the formulas of the rules, in one place.
 */
function withError(
  rule: Exclude<ErrorRule, { kind: 'none' }>,
  g: number,
  own: number,
  tNoise: number,
  v: number,
  t: number,
  ceiling: number,
): number {
  if (rule.kind === 'depression') {
    const forecastT = t + rule.temperature.scale * g * tNoise;
    return forecastT - (t - v) * Math.exp(rule.scale * g * own);
  }
  const e = rule.scale * g * own;
  if (rule.kind === 'additive') return v + e;
  const f = v * Math.exp(e);
  const most = v > ceiling ? v : ceiling;
  return f > most ? most : f;
}

/**
 * A run's values of one variable at a point: the truth at each valid time with the rule's error.
 * `validMs` and the truth arrays are aligned; NaN stays NaN.
 */
export function forecastValues(
  rule: ErrorRule,
  run: ErrorRun,
  latitude: number,
  longitude: number,
  validMs: readonly number[],
  truth: Truth,
): Float64Array {
  const leads = validMs.map((t) => (t - run.initMs) / HOUR_MS);
  const out = new Float64Array(validMs.length);
  if (rule.kind === 'none') {
    for (let n = 0; n < out.length; n++) out[n] = truth.values[n] as number;
    return out;
  }
  const noise = (stream: string) => errorNoise({ ...run, stream }, latitude, longitude, leads);
  const own = noise(rule.stream);
  const temperature = truth.temperature;
  if (rule.kind === 'depression' && !temperature) throw new Error('the dewpoint error needs the temperature');
  const tNoise = rule.kind === 'depression' ? noise(rule.temperature.stream) : own;
  const capped = capsAtClearSky(rule);
  for (let n = 0; n < out.length; n++) {
    const t = temperature ? (temperature[n] as number) : Number.NaN;
    const ceiling = capped ? clearSkyCeilingAt(ceilingSun(validMs[n]!), latitude, longitude) : Infinity;
    out[n] = withError(rule, errorGrowth(leads[n] as number), own[n] as number, tNoise[n] as number, truth.values[n] as number, t, ceiling);
  }
  return out;
}

/**
 * A run's values of one variable at one valid time over the points lats x lons (row-major, as
 * errorNoiseGrid): each what forecastValues gives at that point, from the truth there (and the
 * temperature's, for the dewpoint). A value equal to `missing` (a caller's mark of no grid there)
 * stays as it is; NaN stays NaN.
 */
export function forecastGrid(
  rule: ErrorRule,
  run: ErrorRun,
  validMs: number,
  lats: ArrayLike<number>,
  lons: ArrayLike<number>,
  truth: { values: Float32Array; temperature?: Float32Array },
  missing: number = Number.NaN,
): Float32Array {
  const out = Float32Array.from(truth.values);
  if (rule.kind === 'none') return out;
  const temperature = truth.temperature;
  if (rule.kind === 'depression' && !temperature) throw new Error('the dewpoint error needs the temperature');
  const lead = (validMs - run.initMs) / HOUR_MS;
  const g = errorGrowth(lead);
  const own = errorNoiseGrid({ ...run, stream: rule.stream }, lats, lons, lead);
  const tNoise = rule.kind === 'depression' ? errorNoiseGrid({ ...run, stream: rule.temperature.stream }, lats, lons, lead) : own;
  // The ceiling's terms once per valid time, row and column (clearSkyCeiling), at the places'
  // coordinates as clearSkyCeilingAt takes them: a pole's row at longitude 0, 180 as -180.
  const sun = capsAtClearSky(rule) ? ceilingSun(validMs) : null;
  const columns = sun && Array.from(lons, (lon) => ceilingColumn(sun, placeOfPoint(lon, 0).lon));
  const poleColumn = sun && ceilingColumn(sun, 0);
  for (let r = 0, n = 0; r < lats.length; r++) {
    const lat = lats[r]!;
    const row = sun && ceilingRow(sun, lat);
    const polar = lat === 90 || lat === -90;
    for (let c = 0; c < lons.length; c++, n++) {
      const v = truth.values[n]!;
      const t = temperature ? temperature[n]! : Number.NaN;
      if (v === missing || t === missing) continue;
      const ceiling = sun ? clearSkyCeiling(sun, row!, polar ? poleColumn! : columns![c]!) : Infinity;
      out[n] = withError(rule, g, own[n]!, tNoise[n]!, v, t, ceiling);
    }
  }
  return out;
}

/**
 * A run's values at one valid time, as a function of a variable's rule, a point and the truth
 * there (and the temperature's, for the dewpoint): what forecastValues gives at that point, for
 * readers that meet their points one at a time. NaN stays NaN.
 */
export function forecastAt(
  run: ErrorRun,
  validMs: number,
): (rule: ErrorRule, latitude: number, longitude: number, value: number, temperature?: number) => number {
  const lead = (validMs - run.initMs) / HOUR_MS;
  const g = errorGrowth(lead);
  const sun = ceilingSun(validMs);
  const streams = new Map<string, (latitude: number, longitude: number) => number>();
  const noise = (stream: string, latitude: number, longitude: number) => {
    let at = streams.get(stream);
    if (!at) streams.set(stream, (at = errorNoiseAt({ ...run, stream }, lead)));
    return at(latitude, longitude);
  };
  return (rule, latitude, longitude, value, temperature) => {
    if (rule.kind === 'none') return value;
    if (rule.kind === 'depression' && temperature === undefined) throw new Error('the dewpoint error needs the temperature');
    const own = noise(rule.stream, latitude, longitude);
    const tNoise = rule.kind === 'depression' ? noise(rule.temperature.stream, latitude, longitude) : own;
    const ceiling = capsAtClearSky(rule) ? clearSkyCeilingAt(sun, latitude, longitude) : Infinity;
    return withError(rule, g, own, tNoise, value, temperature ?? Number.NaN, ceiling);
  };
}

/** The instants of an hour that reference ET reads, and the hour's shortwave (ASCE-EWRI 2005 hourly). */
export interface EtHourValues {
  airTemperature: number;
  dewpoint: number;
  shortwave: number;
  windSpeed: number;
}

/**
 * An hour's ET inputs at a point as a run forecasts them: each by its variable's rule, the
 * dewpoint's with the temperature's truth. `forecast` gives one variable's value with the run's
 * error there (forecastAt, taken at the point), so the tiles' pixels and the platform's datapoint
 * of a forecast frame compute ET from the same inputs (docs/decisions/0496-product-runs-are-a-models-runs.md).
 */
export function forecastEtInputs(
  forecast: (variable: VariableId, value: number, temperature?: number) => number,
  truth: EtHourValues,
): EtHourValues {
  return {
    airTemperature: forecast(ET_INPUT_VARIABLES.airTemperature, truth.airTemperature),
    dewpoint: forecast(ET_INPUT_VARIABLES.dewpoint, truth.dewpoint, truth.airTemperature),
    shortwave: forecast(ET_INPUT_VARIABLES.shortwave, truth.shortwave),
    windSpeed: forecast(ET_INPUT_VARIABLES.windSpeed, truth.windSpeed),
  };
}
