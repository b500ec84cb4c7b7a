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

export type DegreeDayMethod = 'average' | 'modified-average' | 'single-sine' | 'single-triangle';

export const DEGREE_DAY_METHODS: readonly DegreeDayMethod[] = ['average', 'modified-average', 'single-sine', 'single-triangle'];

export interface DegreeDayOptions {
  /** Defaults to 'average', the spec's method. */
  method?: DegreeDayMethod;
  /** Lower developmental threshold, in the scale of the temperatures. */
  base: number;
  /**
   * Upper threshold (horizontal cutoff), in the same scale. Not part of the simple average
   * method (McMaster & Wilhelm method 1 has none), so it is rejected there.
   */
  cap?: number;
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
 * Single sine method (Baskerville & Emin 1969, Ecology 50:514-517) with a horizontal upper
 * cutoff, in the closed forms of Zalom et al. (1983, UC DANR Leaflet 21373) as published by
 * UC IPM (ipm.ucanr.edu, "Degree-days: single sine method"). The day's temperature is taken as
 * T(θ) = M + α sin θ with M = (Tmax+Tmin)/2 and α = (Tmax-Tmin)/2; degree days are the mean
 * over the cycle of min(max(T - lower, 0), upper - lower). By the symmetry of the sine this is
 * (1/π) ∫ from -π/2 to π/2, which gives one formula for all of Zalom's cases:
 *
 *   DD = (1/π) [ (M - L)(θ2 - θ1) + α (cos θ1 - cos θ2) + (U - L)(π/2 - θ2) ]
 *
 * with θ1 = asin((L - M)/α) when Tmin < L (else -π/2) and θ2 = asin((U - M)/α) when Tmax > U
 * (else π/2). With θ2 = π/2 it reduces to Zalom's "intercepted by the lower threshold only"
 * form (1/π)[(M-L)(π/2-θ1) + α cos θ1]; with θ1 = -π/2 to his "upper threshold only" form.
 */
export function singleSineDegreeDays(tmax: number, tmin: number, lower: number, upper = Number.POSITIVE_INFINITY): number {
  if (Number.isNaN(tmax) || Number.isNaN(tmin)) return Number.NaN;
  // Tolerate swapped extremes from imperfect data: the method only needs the day's range.
  const hi = tmax >= tmin ? tmax : tmin;
  const lo = tmax >= tmin ? tmin : tmax;
  if (hi <= lower) return 0;
  if (lo >= upper) return upper - lower;
  const mean = (hi + lo) / 2;
  if (lo >= lower && hi <= upper) return mean - lower;
  const amp = (hi - lo) / 2; // > 0 here: a flat day lies entirely in one of the cases above
  const theta1 = lo < lower ? Math.asin(clampUnit((lower - mean) / amp)) : -HALF_PI;
  const theta2 = hi > upper ? Math.asin(clampUnit((upper - mean) / amp)) : HALF_PI;
  const upperPart = theta2 < HALF_PI ? (upper - lower) * (HALF_PI - theta2) : 0;
  return ((mean - lower) * (theta2 - theta1) + amp * (Math.cos(theta1) - Math.cos(theta2)) + upperPart) / Math.PI;
}

/**
 * Single triangle method (Zalom et al. 1983; UC IPM "Degree-days: single triangle method"):
 * the day is a symmetric triangle rising from Tmin to Tmax and back, so the time spent at each
 * temperature is uniform over [Tmin, Tmax]. Zalom's closed forms, horizontal cutoff:
 *   Tmin >= L, Tmax <= U:  M - L
 *   Tmin <  L < Tmax <= U: (Tmax - L)^2 / (2 (Tmax - Tmin))
 *   Tmin <  L, Tmax >  U:  [(Tmax - L)^2 - (Tmax - U)^2] / (2 (Tmax - Tmin))
 *   L <= Tmin,  Tmax > U:  M - L - (Tmax - U)^2 / (2 (Tmax - Tmin))
 *   Tmin >= U: U - L;  Tmax <= L: 0
 */
export function singleTriangleDegreeDays(tmax: number, tmin: number, lower: number, upper = Number.POSITIVE_INFINITY): number {
  if (Number.isNaN(tmax) || Number.isNaN(tmin)) return Number.NaN;
  const hi = tmax >= tmin ? tmax : tmin;
  const lo = tmax >= tmin ? tmin : tmax;
  if (hi <= lower) return 0;
  if (lo >= upper) return upper - lower;
  const range2 = 2 * (hi - lo); // > 0 here, as in the sine method
  let dd: number;
  if (lo >= lower) {
    dd = (hi + lo) / 2 - lower;
  } else {
    const above = hi - lower;
    dd = (above * above) / range2;
  }
  if (hi > upper) {
    const over = hi - upper;
    dd -= (over * over) / range2;
  }
  return dd;
}

function clampUnit(x: number): number {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/** Method code resolved once per call of the accumulator, so the day loop is a plain switch. */
type Kind = 0 | 1 | 2 | 3;
const Kind = { Average: 0, ModifiedAverage: 1, Sine: 2, Triangle: 3 } as const;

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
  switch (method) {
    case 'average':
      return Kind.Average;
    case 'modified-average':
      return Kind.ModifiedAverage;
    case 'single-sine':
      return Kind.Sine;
    case 'single-triangle':
      return Kind.Triangle;
    default:
      throw new RangeError(`unknown degree-day method: ${String(method)}`);
  }
}

function oneDay(kind: Kind, tmax: number, tmin: number, base: number, cap: number): number {
  switch (kind) {
    case Kind.Average:
      return averageDegreeDays(tmax, tmin, base);
    case Kind.ModifiedAverage:
      return modifiedAverageDegreeDays(tmax, tmin, base, cap);
    case Kind.Sine:
      return singleSineDegreeDays(tmax, tmin, base, cap);
    case Kind.Triangle:
      return singleTriangleDegreeDays(tmax, tmin, base, cap);
  }
}

/**
 * Degree days of one day. A NaN temperature gives NaN (an unknown day stays unknown).
 * Allocates nothing, so it can run per grid cell; validation is a few comparisons.
 */
export function degreeDays(tmax: number, tmin: number, opts: DegreeDayOptions): number {
  return oneDay(resolve(opts), tmax, tmin, opts.base, opts.cap ?? Number.POSITIVE_INFINITY);
}

/**
 * Degree days summed over days [start, end) of two parallel daily series (default: all days).
 * A NaN day makes the total NaN rather than silently shortening the season.
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
  let total = 0;
  for (let i = start; i < end; i++) {
    // Index is in range by the check above; `as number` only satisfies noUncheckedIndexedAccess.
    total += oneDay(kind, tmax[i] as number, tmin[i] as number, base, cap);
  }
  return total;
}

/**
 * Degree days of each day written into `out` (allocated when not given), for callers that need
 * the daily values as well as the total, e.g. to map or chart accumulation.
 */
export function dailyDegreeDays(
  tmax: TemperatureSeries,
  tmin: TemperatureSeries,
  opts: DegreeDayOptions,
  out: Float64Array | Float32Array = new Float64Array(tmax.length),
): Float64Array | Float32Array {
  if (tmax.length !== tmin.length || out.length < tmax.length) {
    throw new RangeError('tmax, tmin and out must cover the same days');
  }
  const kind = resolve(opts);
  const { base } = opts;
  const cap = opts.cap ?? Number.POSITIVE_INFINITY;
  for (let i = 0; i < tmax.length; i++) {
    out[i] = oneDay(kind, tmax[i] as number, tmin[i] as number, base, cap);
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
