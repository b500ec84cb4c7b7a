/**
 * Summary statistics of a time series (spec 2.8: mean, median, mode over the series; the model
 * area also reports the extremes with their validTime).
 *
 * Missing values (null, undefined, NaN) are skipped, as the spec asks. An empty series, or one
 * with nothing but missing values, has no statistics: every field is null.
 *
 * Mode of continuous data (recorded in docs/decisions/0009-statistics-mode.md): the most frequent value after
 * rounding each value to the variable's display precision (`precision` decimal places, default
 * 1; halves round up, toward +∞, as Math.round does); ties go to the smallest such value.
 */

export interface SeriesPoint {
  validTime: string;
  value: number | null | undefined;
}

export interface SeriesStatistics {
  /** Number of values used (missing values excluded). */
  count: number;
  mean: number | null;
  median: number | null;
  mode: number | null;
  minimum: number | null;
  /** validTime of the first occurrence of the minimum. */
  minimumTime: string | null;
  maximum: number | null;
  /** validTime of the first occurrence of the maximum. */
  maximumTime: string | null;
}

export interface StatisticsOptions {
  /** Decimal places of the variable's display precision, used by the mode. Default 1. */
  precision?: number;
}

type MaybeNumber = number | null | undefined;

function isPresent(v: MaybeNumber): v is number {
  return typeof v === 'number' && !Number.isNaN(v);
}

/** Values present in the series, in order. */
function present(values: ArrayLike<MaybeNumber>): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (isPresent(v)) out.push(v);
  }
  return out;
}

/** Arithmetic mean of the present values; null when there are none. */
export function mean(values: ArrayLike<MaybeNumber>): number | null {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (isPresent(v)) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? null : sum / n;
}

/** Median of the present values (mean of the two middle values for an even count); null when none. */
export function median(values: ArrayLike<MaybeNumber>): number | null {
  const xs = present(values).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return null;
  const mid = n >> 1;
  return n % 2 === 1 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
}

function checkPrecision(precision: number): void {
  if (!Number.isInteger(precision) || precision < 0 || precision > 12) {
    throw new RangeError(`precision must be an integer from 0 to 12, got ${precision}`);
  }
}

/**
 * Mode at a display precision: values are binned by Math.round(v x 10^precision) (integer keys,
 * so binning is exact), the most frequent bin wins, ties go to the smallest bin, and the bin's
 * value is returned at that precision. Null when there are no values.
 */
export function mode(values: ArrayLike<MaybeNumber>, precision = 1): number | null {
  checkPrecision(precision);
  const scale = 10 ** precision;
  const counts = new Map<number, number>();
  let best: number | null = null;
  let bestCount = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!isPresent(v)) continue;
    const key = Math.round(v * scale);
    const c = (counts.get(key) ?? 0) + 1;
    counts.set(key, c);
    if (c > bestCount || (c === bestCount && best !== null && key < best)) {
      best = key;
      bestCount = c;
    }
  }
  // Normalise -0 (a small negative value rounding to zero) to 0 for a clean JSON number.
  return best === null ? null : best / scale + 0;
}

/** All statistics of a series of {validTime, value} points (spec 2.8). */
export function seriesStatistics(series: ReadonlyArray<SeriesPoint>, opts: StatisticsOptions = {}): SeriesStatistics {
  const precision = opts.precision ?? 1;
  checkPrecision(precision);
  const values: MaybeNumber[] = new Array(series.length);
  let minimum: number | null = null;
  let maximum: number | null = null;
  let minimumTime: string | null = null;
  let maximumTime: string | null = null;
  let count = 0;
  for (let i = 0; i < series.length; i++) {
    const p = series[i] as SeriesPoint;
    values[i] = p.value;
    if (!isPresent(p.value)) continue;
    count++;
    // Strict comparisons keep the first occurrence of each extreme.
    if (minimum === null || p.value < minimum) {
      minimum = p.value;
      minimumTime = p.validTime;
    }
    if (maximum === null || p.value > maximum) {
      maximum = p.value;
      maximumTime = p.validTime;
    }
  }
  return {
    count,
    mean: mean(values),
    median: median(values),
    mode: mode(values, precision),
    minimum,
    minimumTime,
    maximum,
    maximumTime,
  };
}
