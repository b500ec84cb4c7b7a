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
 *   dewpoint:       forecast = T_forecast - (T - Td) exp(s g n)   (never above the temperature)
 */
import { placeOfPoint, type VariableId } from '@fieldcast/weather';

/** e-folding lead time of the error's growth, hours. */
export const ERROR_GROWTH_HOURS = 120;
const LATTICE_DEGREES = 5;
const LATTICE_HOURS = 12;
const LON_CELLS = 360 / LATTICE_DEGREES;
const HOUR_MS = 3_600_000;

/** How a variable's error is applied, and its scale once fully grown. */
export type ErrorRule =
  | { kind: 'additive'; scale: number; stream: string }
  | { kind: 'multiplicative'; scale: number; stream: string }
  /** the dewpoint: the temperature's additive error, and the dewpoint depression scaled */
  | { kind: 'depression'; scale: number; stream: string; temperature: { scale: number; stream: string } }
  | { kind: 'none' };

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
  surface_downwelling_shortwave_flux_in_air: { kind: 'multiplicative', scale: 0.3, stream: 'shortwave' },
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

/**
 * The noise n of one error stream of one run at a point, at each lead (hours) in `leads`:
 * smooth (smoothstep between lattice nodes) in space and lead time. The point is taken at its
 * place's coordinates, as the weather reads it (placeOfPoint): a pole has one error whatever the
 * longitude a request names.
 */
export function errorNoise(
  streamKey: { model: string; initMs: number; stream: string },
  latitude: number,
  longitude: number,
  leads: readonly number[],
): Float64Array {
  const seed = seedOf(`${streamKey.model}:${streamKey.initMs}:${streamKey.stream}`);
  const place = placeOfPoint(longitude, latitude);
  const y = (place.lat + 90) / LATTICE_DEGREES;
  const x = ((((place.lon + 180) % 360) + 360) % 360) / LATTICE_DEGREES;
  const i0 = Math.floor(y);
  const j0 = Math.floor(x);
  const j1 = (j0 + 1) % LON_CELLS;
  const wy = smooth(y - i0);
  const wx = smooth(x - j0);
  const atNode = new Map<number, number>();
  const spatial = (k: number): number => {
    let v = atNode.get(k);
    if (v === undefined) {
      const south = latticeValue(seed, i0, j0, k) * (1 - wx) + latticeValue(seed, i0, j1, k) * wx;
      const north = latticeValue(seed, i0 + 1, j0, k) * (1 - wx) + latticeValue(seed, i0 + 1, j1, k) * wx;
      v = south * (1 - wy) + north * wy;
      atNode.set(k, v);
    }
    return v;
  };
  const out = new Float64Array(leads.length);
  for (let n = 0; n < leads.length; n++) {
    const z = (leads[n] as number) / LATTICE_HOURS;
    const k0 = Math.floor(z);
    const wz = smooth(z - k0);
    out[n] = spatial(k0) * (1 - wz) + spatial(k0 + 1) * wz;
  }
  return out;
}

/** The truth a rule needs: the variable's own series, and for the dewpoint the temperature's. */
export interface Truth {
  values: ArrayLike<number>;
  temperature?: ArrayLike<number>;
}

/**
 * A run's values of one variable at a point: the truth at each valid time with the rule's error.
 * `validMs` and the truth arrays are aligned; NaN stays NaN.
 */
export function forecastValues(
  rule: ErrorRule,
  run: { model: string; initMs: number },
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
  if (rule.kind === 'depression') {
    const temperature = truth.temperature;
    if (!temperature) throw new Error('the dewpoint error needs the temperature');
    const tNoise = noise(rule.temperature.stream);
    for (let n = 0; n < out.length; n++) {
      const g = errorGrowth(leads[n] as number);
      const t = temperature[n] as number;
      const forecastT = t + rule.temperature.scale * g * (tNoise[n] as number);
      out[n] = forecastT - (t - (truth.values[n] as number)) * Math.exp(rule.scale * g * (own[n] as number));
    }
    return out;
  }
  for (let n = 0; n < out.length; n++) {
    const e = rule.scale * errorGrowth(leads[n] as number) * (own[n] as number);
    const v = truth.values[n] as number;
    out[n] = rule.kind === 'additive' ? v + e : v * Math.exp(e);
  }
  return out;
}
