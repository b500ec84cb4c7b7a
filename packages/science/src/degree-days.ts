/**
 * Growing degree days from daily maximum and minimum temperature.
 *
 * Every method works in whatever scale the caller uses, as long as the temperatures, the base
 * and the cap are all in that one scale (spec 4.1: "the base is in the requested scale"). All
 * four methods are homogeneous under the affine change of scale C -> F, so a Fahrenheit total is
 * exactly 1.8 x the Celsius total *only when the bases (and caps) correspond* (base_F =
 * 1.8 base_C + 32, e.g. 10 °C <-> 50 °F). A base of 10 in a Fahrenheit request is a different
 * question from a base of 10 in a Celsius request; convert temperatures, never totals, unless
 * the bases correspond (see `celsiusDegreeDaysToFahrenheit`).
 *
 * Hot path: the scalar functions allocate nothing; `accumulateDegreeDays` resolves its options
 * once and then loops over the days with plain arithmetic.
 */

export const DEGREE_DAY_METHODS = [
  'average',
  'modified-average',
  'single-sine',
  'single-triangle',
  'double-sine',
  'double-triangle',
] as const;

export type DegreeDayMethod = (typeof DEGREE_DAY_METHODS)[number];

/**
 * The scales a caller asks degree days in, as the agriculture area's `scale` parameter spells
 * them (spec 4.1); the functions here take the temperatures, base and cap in either.
 */
export const DEGREE_DAY_SCALES = ['celsius', 'fahrenheit'] as const;
export type DegreeDayScale = (typeof DEGREE_DAY_SCALES)[number];

/** Each scale's symbol, as answers and messages write a temperature in it. */
export const DEGREE_DAY_SCALE_SYMBOLS: Readonly<Record<DegreeDayScale, string>> = { celsius: '°C', fahrenheit: '°F' };

/**
 * What development does above the upper threshold (UC IPM, "About degree-days", glossary;
 * USPEST.org "Degree-day calculation methods"): horizontal, it goes on at the rate of the
 * threshold; vertical, it stops; intermediate, it slows by as much as the temperature exceeds
 * the threshold (rate U - L - (T - U)).
 */
export type DegreeDayCutoff = 'horizontal' | 'vertical' | 'intermediate';
export const DEGREE_DAY_CUTOFFS: readonly DegreeDayCutoff[] = ['horizontal', 'vertical', 'intermediate'];

/** The methods that model the day's curve (Zalom et al. 1983) and so take every cutoff. */
export const CURVE_DEGREE_DAY_METHODS: readonly DegreeDayMethod[] = ['single-sine', 'single-triangle', 'double-sine', 'double-triangle'];

/** Double methods read the next day's minimum (UC IPM, "Degree-days: double sine method"). */
export function usesNextMinimum(method: DegreeDayMethod): boolean {
  return method === 'double-sine' || method === 'double-triangle';
}

export interface DegreeDayOptions {
  /** Defaults to 'average', the spec's method. */
  method?: DegreeDayMethod;
  /** Lower developmental threshold, in the scale of the temperatures. */
  base: number;
  /**
   * Upper threshold, in the same scale. Not part of the simple average method (McMaster &
   * Wilhelm method 1 has none), so it is rejected there.
   */
  cap?: number;
  /** How the upper threshold applies; default horizontal. Only the curve methods take another. */
  cutoff?: DegreeDayCutoff;
}

/** Daily temperatures as plain arrays or typed arrays (the grid sources hand out Float32Array). */
export type TemperatureSeries = ArrayLike<number>;

const HALF_PI = Math.PI / 2;

/**
 * Method 1 of McMaster & Wilhelm (1997, eq. 1): mean of the extremes minus the base, negative
 * results counted as zero. The spec's default.
 */
export function averageDegreeDays(tmax: number, tmin: number, base: number): number {
  const dd = (tmax + tmin) / 2 - base;
  return dd > 0 || Number.isNaN(dd) ? dd : 0; // an unknown day stays unknown
}

/**
 * Method 2 of McMaster & Wilhelm (1997, eqs. 2-3): each extreme is raised to the base when
 * below it and, with an upper threshold, lowered to it when above, before averaging. With
 * base 50 °F and cap 86 °F this is the corn "86/50" rule (NWS modified growing degree days).
 * The cap applies to Tmin as well, so a night above the cap cannot push the day past cap-base.
 */
export function modifiedAverageDegreeDays(tmax: number, tmin: number, base: number, cap = Number.POSITIVE_INFINITY): number {
  if (Number.isNaN(tmax) || Number.isNaN(tmin)) return Number.NaN;
  let hi = tmax < cap ? tmax : cap;
  let lo = tmin < cap ? tmin : cap;
  if (hi < base) hi = base;
  if (lo < base) lo = base;
  return (hi + lo) / 2 - base;
}

/**
 * Mean over the day's sine curve of max(T - t, 0): degree days above threshold t with no upper
 * cutoff (Baskerville & Emin 1969, Ecology 50:514-517; Zalom et al. 1983, UC DANR Leaflet
 * 21373, "intercepted by the lower threshold" case, as UC IPM publishes it: "Degree-days: single
 * sine method"). T(θ) = M + α sin θ, M = (Tmax+Tmin)/2, α = (Tmax-Tmin)/2, θ1 = asin((t-M)/α):
 *   (1/π) [ (M - t)(π/2 - θ1) + α cos θ1 ]
 */
function sineExcess(hi: number, lo: number, t: number): number {
  if (hi <= t) return 0;
  const mean = (hi + lo) / 2;
  if (lo >= t) return mean - t;
  const amp = (hi - lo) / 2; // > 0: hi > t > lo
  const theta = Math.asin(clampUnit((t - mean) / amp));
  return ((mean - t) * (HALF_PI - theta) + amp * Math.cos(theta)) / Math.PI;
}

/** Share of the day's sine curve above t: (π/2 - θ)/π, θ = asin((t - M)/α). */
function sineShareAbove(hi: number, lo: number, t: number): number {
  if (hi <= t) return 0;
  if (lo >= t) return 1;
  const theta = Math.asin(clampUnit((t - (hi + lo) / 2) / ((hi - lo) / 2)));
  return (HALF_PI - theta) / Math.PI;
}

/**
 * Mean over the day's triangle of max(T - t, 0) (Zalom et al. 1983; UC IPM "Degree-days:
 * single triangle method"): the triangle spends equal time at every temperature between the
 * extremes, so it is (Tmax - t)^2 / (2 (Tmax - Tmin)) when the threshold cuts it.
 */
function triangleExcess(hi: number, lo: number, t: number): number {
  if (hi <= t) return 0;
  if (lo >= t) return (hi + lo) / 2 - t;
  const above = hi - t;
  return (above * above) / (2 * (hi - lo));
}

/** Share of the day's triangle above t: (Tmax - t) / (Tmax - Tmin). */
function triangleShareAbove(hi: number, lo: number, t: number): number {
  if (hi <= t) return 0;
  if (lo >= t) return 1;
  return (hi - t) / (hi - lo);
}

/**
 * One curve (sine or triangle) between the lower and upper thresholds with a cutoff, from the
 * excess E(t) over a threshold and the share P(t) of the day above it. The rate function is
 * T - L between the thresholds; above U it is U - L (horizontal), 0 (vertical) or
 * U - L - (T - U) (intermediate), which integrate to Zalom et al.'s (1983) cases:
 *   horizontal:   E(L) - E(U)
 *   vertical:     E(L) - E(U) - (U - L) P(U)
 *   intermediate: E(L) - 2 E(U), which falls below the vertical value on a day hot enough for
 *                 the rate to go negative long enough; the methods below then give the vertical
 *                 value, once per day (dayValue, docs/decisions/0240-degree-day-cutoffs.md)
 */
function curveDegreeDays(
  excess: (hi: number, lo: number, t: number) => number,
  shareAbove: (hi: number, lo: number, t: number) => number,
  tmax: number,
  tmin: number,
  lower: number,
  upper: number,
  cutoff: DegreeDayCutoff,
): number {
  if (Number.isNaN(tmax) || Number.isNaN(tmin)) return Number.NaN;
  // Tolerate swapped extremes from imperfect data: the methods only need the day's range.
  const hi = tmax >= tmin ? tmax : tmin;
  const lo = tmax >= tmin ? tmin : tmax;
  const aboveLower = excess(hi, lo, lower);
  if (upper === Number.POSITIVE_INFINITY) return aboveLower;
  const aboveUpper = excess(hi, lo, upper);
  switch (cutoff) {
    case 'horizontal':
      return aboveLower - aboveUpper;
    case 'vertical':
      return aboveLower - aboveUpper - (upper - lower) * shareAbove(hi, lo, upper);
    case 'intermediate':
      return aboveLower - 2 * aboveUpper;
  }
}

const notBelowZero = (dd: number) => (dd < 0 ? 0 : dd);

/**
 * A day's value from its curve's value under the cutoff and, for the intermediate cutoff only,
 * under the vertical one. Development that slows above the upper threshold never counts less than
 * development that stops there: where the intermediate rate has gone negative long enough for
 * E(L) - 2 E(U) to fall below the vertical value, UC IPM's calculator gives the vertical value
 * (its published results for the Esparto A station, 2020, at 50/70 °F: 11 July and 15 August,
 * packages/science/test/degree-days-ucipm.test.ts), which is 0 on a day wholly above the
 * threshold. It applies once per day, after a double method's two halves are added (6 September
 * there). No value is below zero (floating-point rounding of a day at a threshold aside).
 */
function dayValue(dd: number, vertical?: number): number {
  return notBelowZero(vertical !== undefined && !(dd > vertical) ? vertical : dd);
}

/** One day of a curve method: the thresholds in the temperatures' scale, the upper one applied by `cutoff`. */
export type CurveDegreeDays = (tmax: number, tmin: number, lower: number, upper?: number, cutoff?: DegreeDayCutoff) => number;
/** One day of a double method, which also reads the next day's minimum. */
export type DoubleCurveDegreeDays = (
  tmax: number,
  tmin: number,
  nextTmin: number,
  lower: number,
  upper?: number,
  cutoff?: DegreeDayCutoff,
) => number;

/** A curve method's day before dayValue, so a double method can add its halves first. */
const rawCurveMethod =
  (excess: typeof sineExcess, shareAbove: typeof sineShareAbove): CurveDegreeDays =>
  (tmax, tmin, lower, upper = Number.POSITIVE_INFINITY, cutoff = 'horizontal') =>
    curveDegreeDays(excess, shareAbove, tmax, tmin, lower, upper, cutoff);

const rawSine = rawCurveMethod(sineExcess, sineShareAbove);
const rawTriangle = rawCurveMethod(triangleExcess, triangleShareAbove);

const singleMethod =
  (raw: CurveDegreeDays): CurveDegreeDays =>
  (tmax, tmin, lower, upper, cutoff = 'horizontal') =>
    dayValue(raw(tmax, tmin, lower, upper, cutoff), cutoff === 'intermediate' ? raw(tmax, tmin, lower, upper, 'vertical') : undefined);

/**
 * The double form of a single method (Zalom et al. 1983; UC IPM "Degree-days: double sine
 * method"): the day's rise from Tmin to Tmax is one half curve and the fall to the next day's
 * minimum another, each counted for half a day. A single-method day is symmetric about its
 * maximum, so each half is half of the single method on its own pair of extremes; the day's
 * value is taken from the sum (dayValue).
 */
const doubleMethod = (raw: CurveDegreeDays): DoubleCurveDegreeDays => {
  const halves = (tmax: number, tmin: number, nextTmin: number, lower: number, upper: number | undefined, cutoff: DegreeDayCutoff) =>
    (raw(tmax, tmin, lower, upper, cutoff) + raw(tmax, nextTmin, lower, upper, cutoff)) / 2;
  return (tmax, tmin, nextTmin, lower, upper, cutoff = 'horizontal') =>
    dayValue(
      halves(tmax, tmin, nextTmin, lower, upper, cutoff),
      cutoff === 'intermediate' ? halves(tmax, tmin, nextTmin, lower, upper, 'vertical') : undefined,
    );
};

/**
 * Single sine method (Baskerville & Emin 1969) in the closed forms of Zalom et al. (1983) as
 * UC IPM publishes them ("Degree-days: single sine method"), with the upper threshold applied
 * by the cutoff (default horizontal).
 */
export const singleSineDegreeDays = singleMethod(rawSine);

/** Single triangle method (Zalom et al. 1983; UC IPM "Degree-days: single triangle method"). */
export const singleTriangleDegreeDays = singleMethod(rawTriangle);

/** Double sine method (Allen 1976, Environ. Entomol. 5:388-396; Zalom et al. 1983; UC IPM). */
export const doubleSineDegreeDays = doubleMethod(rawSine);

/** Double triangle method (Sevacherian et al. 1977; Zalom et al. 1983; UC IPM). */
export const doubleTriangleDegreeDays = doubleMethod(rawTriangle);

function clampUnit(x: number): number {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/** Method code resolved once per call of the accumulator, so the day loop is a plain switch. */
type Kind = 0 | 1 | 2 | 3 | 4 | 5;
const Kind = { Average: 0, ModifiedAverage: 1, Sine: 2, Triangle: 3, DoubleSine: 4, DoubleTriangle: 5 } as const;
const KINDS: Record<DegreeDayMethod, Kind> = {
  average: Kind.Average,
  'modified-average': Kind.ModifiedAverage,
  'single-sine': Kind.Sine,
  'single-triangle': Kind.Triangle,
  'double-sine': Kind.DoubleSine,
  'double-triangle': Kind.DoubleTriangle,
};

/** Validates the options and returns the method code; allocates nothing. */
function resolve(opts: DegreeDayOptions): Kind {
  const method = opts.method ?? 'average';
  const { base } = opts;
  if (!Number.isFinite(base)) throw new RangeError(`degree-day base must be a finite number, got ${base}`);
  if (opts.cap !== undefined) {
    if (method === 'average') {
      throw new RangeError("the 'average' degree-day method has no upper threshold; use 'modified-average'");
    }
    if (!Number.isFinite(opts.cap) || opts.cap < base) {
      throw new RangeError(`degree-day cap must be a finite number not below the base, got ${opts.cap}`);
    }
  }
  const cutoff = opts.cutoff ?? 'horizontal';
  if (!DEGREE_DAY_CUTOFFS.includes(cutoff)) throw new RangeError(`unknown degree-day cutoff: ${String(cutoff)}`);
  if (cutoff !== 'horizontal') {
    if (opts.cap === undefined) throw new RangeError(`the ${cutoff} cutoff needs an upper threshold (cap)`);
    if (!CURVE_DEGREE_DAY_METHODS.includes(method)) {
      throw new RangeError(`the ${cutoff} cutoff applies to the sine and triangle methods, not '${method}'`);
    }
  }
  const kind = Object.hasOwn(KINDS, method) ? KINDS[method] : undefined;
  if (kind === undefined) throw new RangeError(`unknown degree-day method: ${String(method)}`);
  return kind;
}

function oneDay(kind: Kind, tmax: number, tmin: number, nextTmin: number, base: number, cap: number, cutoff: DegreeDayCutoff): number {
  switch (kind) {
    case Kind.Average:
      return averageDegreeDays(tmax, tmin, base);
    case Kind.ModifiedAverage:
      return modifiedAverageDegreeDays(tmax, tmin, base, cap);
    case Kind.Sine:
      return singleSineDegreeDays(tmax, tmin, base, cap, cutoff);
    case Kind.Triangle:
      return singleTriangleDegreeDays(tmax, tmin, base, cap, cutoff);
    case Kind.DoubleSine:
      return doubleSineDegreeDays(tmax, tmin, nextTmin, base, cap, cutoff);
    case Kind.DoubleTriangle:
      return doubleTriangleDegreeDays(tmax, tmin, nextTmin, base, cap, cutoff);
  }
}

/**
 * Degree days of one day. A NaN temperature gives NaN (an unknown day stays unknown); the
 * double methods need the next day's minimum and give NaN without it.
 * Allocates nothing, so it can run per grid cell; validation is a few comparisons.
 */
export function degreeDays(tmax: number, tmin: number, opts: DegreeDayOptions, nextTmin = Number.NaN): number {
  return oneDay(resolve(opts), tmax, tmin, nextTmin, opts.base, opts.cap ?? Number.POSITIVE_INFINITY, opts.cutoff ?? 'horizontal');
}

/**
 * Degree days summed over days [start, end) of two parallel daily series (default: all days).
 * A NaN day makes the total NaN rather than silently shortening the season. The double methods
 * read day i + 1's minimum, so their last day must lie before the end of the series: read one
 * day more than the range (the day after `end` has no minimum here and comes out NaN).
 */
export function accumulateDegreeDays(
  tmax: TemperatureSeries,
  tmin: TemperatureSeries,
  opts: DegreeDayOptions,
  start = 0,
  end = tmax.length,
): number {
  if (tmax.length !== tmin.length) {
    throw new RangeError(`tmax and tmin differ in length (${tmax.length} vs ${tmin.length})`);
  }
  if (start < 0 || end > tmax.length || start > end) {
    throw new RangeError(`day range [${start}, ${end}) is outside the series of ${tmax.length} days`);
  }
  const kind = resolve(opts);
  const { base } = opts;
  const cap = opts.cap ?? Number.POSITIVE_INFINITY;
  const cutoff = opts.cutoff ?? 'horizontal';
  const last = tmin.length - 1;
  let total = 0;
  for (let i = start; i < end; i++) {
    // Index is in range by the check above; `as number` only satisfies noUncheckedIndexedAccess.
    const next = i < last ? (tmin[i + 1] as number) : Number.NaN;
    total += oneDay(kind, tmax[i] as number, tmin[i] as number, next, base, cap, cutoff);
  }
  return total;
}

/**
 * Degree days of each day written into `out` (allocated when not given), for callers that need
 * the daily values as well as the total, e.g. to map or chart accumulation. `stride` is how far
 * the next day's value lies in the arrays: 1 for a series, the cell count for a window laid out
 * [t][lat][lon]; where it lies past the end a double method gives NaN.
 */
export function dailyDegreeDays(
  tmax: TemperatureSeries,
  tmin: TemperatureSeries,
  opts: DegreeDayOptions,
  out: Float64Array | Float32Array = new Float64Array(tmax.length),
  stride = 1,
): Float64Array | Float32Array {
  if (tmax.length !== tmin.length || out.length < tmax.length) {
    throw new RangeError('tmax, tmin and out must cover the same days');
  }
  if (!(Number.isInteger(stride) && stride >= 1)) throw new RangeError(`stride must be a positive integer, got ${stride}`);
  const kind = resolve(opts);
  const { base } = opts;
  const cap = opts.cap ?? Number.POSITIVE_INFINITY;
  const cutoff = opts.cutoff ?? 'horizontal';
  const n = tmax.length;
  for (let i = 0; i < n; i++) {
    const next = i + stride < n ? (tmin[i + stride] as number) : Number.NaN;
    out[i] = oneDay(kind, tmax[i] as number, tmin[i] as number, next, base, cap, cutoff);
  }
  return out;
}

/**
 * A Celsius degree-day total in Fahrenheit degree days: x 1.8. Valid only when the Fahrenheit
 * base (and cap) correspond to the Celsius ones (base_F = 1.8 base_C + 32); every method here
 * is invariant under that change of scale, so the factor is exact for them.
 */
export function celsiusDegreeDaysToFahrenheit(ddCelsius: number): number {
  return ddCelsius * 1.8;
}

/** A Fahrenheit degree-day total in Celsius degree days (÷ 1.8), same proviso on the bases. */
export function fahrenheitDegreeDaysToCelsius(ddFahrenheit: number): number {
  return ddFahrenheit / 1.8;
}
