/**
 * Winter chill of temperate fruit trees from hourly air temperature (°C), the three models
 * chillR computes (Luedeling, chillR R package, R/temp_models.R: Chilling_Hours, Utah_Model,
 * Dynamic_Model). Each function returns the total over the series; `hourly*` variants write each
 * hour's contribution, for callers that chart accumulation. A NaN hour makes the total NaN.
 */

/** The chill models by name, as the agriculture area's `model` parameter spells them. */
export type ChillModel = 'hours' | 'utah' | 'dynamic';
export const CHILL_MODELS: readonly ChillModel[] = ['hours', 'utah', 'dynamic'];

/**
 * Chilling hours (Bennett 1949, Calif. Agric. 3(11); Weinberger 1950): one for every hour from
 * 0 to 7.2 °C, both ends included, as chillR's Chilling_Hours (`HourTemp <= 7.2 & HourTemp >= 0`).
 */
export function chillHour(t: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  return t >= 0 && t <= 7.2 ? 1 : 0;
}

/**
 * Utah chill units (Richardson, Seeley & Walker 1974, HortScience 9(4):331-332), the weights of
 * chillR's Utah_Model: an hour in (lower, upper] of a band gets its weight.
 *   <= 1.4: 0;  (1.4, 2.4]: 0.5;  (2.4, 9.1]: 1;  (9.1, 12.4]: 0.5;  (12.4, 15.9]: 0;
 *   (15.9, 18]: -0.5;  > 18: -1
 */
export function utahChillUnit(t: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  if (t <= 1.4) return 0;
  if (t <= 2.4) return 0.5;
  if (t <= 9.1) return 1;
  if (t <= 12.4) return 0.5;
  if (t <= 15.9) return 0;
  if (t <= 18) return -0.5;
  return -1;
}

/**
 * Constants of the Dynamic model (Fishman, Erez & Couvillon 1987a,b, J. Theor. Biol. 124:473-483
 * and 126:309-321; Erez et al. 1990, Acta Hortic. 276:165-174), as chillR's Dynamic_Model
 * defaults: activation energies E0, E1 (K), rate constants A0, A1 (h⁻¹), the slope and the
 * transition temperature Tf (K) of the sigmoid that decides how much of the intermediate becomes
 * a portion. chillR converts °C with +273 (not 273.15); kept, so results match its own.
 */
export const DYNAMIC_MODEL = {
  e0: 4153.5,
  e1: 12888.8,
  a0: 139500,
  a1: 2.567e18,
  slope: 1.6,
  tf: 277,
  kelvinOffset: 273,
} as const;
const AA = DYNAMIC_MODEL.a0 / DYNAMIC_MODEL.a1;
const EE = DYNAMIC_MODEL.e1 - DYNAMIC_MODEL.e0;

/**
 * Chill portions of each hour, written into `out`, exactly as chillR's Dynamic_Model (since
 * chillR 0.72; 0.60's moved the state with the hour's own temperature, one hour later): the
 * intermediate x starts at 0; hour i's temperature moves it towards its equilibrium
 * xs = aa exp(ee/TK) at rate k1 = A1 exp(-E1/TK) (x <- xs - (xs - S) exp(-k1)); once x reaches 1,
 * the share xi = sr/(1+sr), sr = exp(slope Tf (TK - Tf)/TK), of it becomes a portion, counted
 * at the next hour, and leaves the pool. The first hour of the series therefore counts nothing,
 * and the last hour's temperature only sets the conversion of the hour before.
 */
export function hourlyChillPortions(temps: ArrayLike<number>, out: Float64Array = new Float64Array(temps.length)): Float64Array {
  const n = temps.length;
  if (out.length < n) throw new RangeError('out must cover every hour');
  if (n === 0) return out;
  out[0] = 0;
  let x = 0; // the intermediate after the previous hour (chillR's x[l-1])
  let xiBefore = 0; // xi of the hour before the previous one (chillR's xi[l-2])
  for (let i = 1; i < n; i++) {
    const tk = (temps[i - 1] as number) + DYNAMIC_MODEL.kelvinOffset;
    const xs = AA * Math.exp(EE / tk);
    const eak1 = Math.exp(-DYNAMIC_MODEL.a1 * Math.exp(-DYNAMIC_MODEL.e1 / tk));
    const sr = Math.exp((DYNAMIC_MODEL.slope * DYNAMIC_MODEL.tf * (tk - DYNAMIC_MODEL.tf)) / tk);
    const xi = Number.isFinite(sr) ? sr / (1 + sr) : 1; // a very warm hour converts all of it
    const s = x >= 1 ? x * (1 - xiBefore) : x;
    x = xs - (xs - s) * eak1;
    out[i] = x >= 1 ? x * xi : Number.isNaN(x) ? Number.NaN : 0;
    xiBefore = xi;
  }
  return out;
}

/** Hourly contribution of the per-hour models. */
function hourlyRule(model: 'hours' | 'utah'): (t: number) => number {
  return model === 'hours' ? chillHour : utahChillUnit;
}

/** Chill of each hour under `model`, into `out`. */
export function hourlyChill(model: ChillModel, temps: ArrayLike<number>, out: Float64Array = new Float64Array(temps.length)): Float64Array {
  if (model === 'dynamic') return hourlyChillPortions(temps, out);
  if (out.length < temps.length) throw new RangeError('out must cover every hour');
  const rule = hourlyRule(model);
  for (let i = 0; i < temps.length; i++) out[i] = rule(temps[i] as number);
  return out;
}

/**
 * Total chill over the series under `model` (chillR's cumulative value at the last hour): the sum
 * of the hours' chill in order, which it writes into `hourly` (hourlyChill) on the way, so a caller
 * that also wants the running total runs the model once. An unknown hour makes the total unknown,
 * including the last one, which the Dynamic model does not read: a season with a gap is not
 * reported as complete.
 */
export function accumulateChill(
  model: ChillModel,
  temps: ArrayLike<number>,
  hourly: Float64Array = new Float64Array(temps.length),
): number {
  if (!CHILL_MODELS.includes(model)) throw new RangeError(`unknown chill model: ${String(model)}`);
  hourlyChill(model, temps, hourly);
  for (let i = 0; i < temps.length; i++) if (Number.isNaN(temps[i] as number)) return Number.NaN;
  let total = 0;
  for (let i = 0; i < temps.length; i++) total += hourly[i] as number;
  return total;
}
