/**
 * What a stamp's value stands for in time, and the value of an interval from the stamps: the one
 * place where a reader that needs the hour [h, h + 1 h) of a series (an hour's precipitation, the
 * shortwave of an hour's ET) gets it, whatever the convention of the source that answered
 * (docs/decisions/0379-time-cells-of-mean-rates.md).
 *
 * A mean over a cell (CF 1.11 §7.3 `time: mean`, its cell the time bounds of §7.1) is constant
 * over its cell, so an interval's mean is the means of the cells it overlaps weighted by the
 * overlap. An instant is a point of a curve linear between stamps, so an interval's mean is the
 * curve's integral over it, the trapezoid rule where the interval runs from stamp to stamp.
 */
import type { PointSeries, TimeCell, VariableInfo } from './grid-source.js';

const HOUR_MS = 3_600_000;

const INSTANT: TimeCell = [0, 0];

/** The time method of cell_methods (CF 1.11 §7.3, "time: mean"), or null when it names none. */
function timeMethod(cellMethods: string): string | null {
  return /\btime\s*:\s*(\w+)/.exec(cellMethods)?.[1] ?? null;
}

/**
 * Whether cell_methods names a statistic over time (CF 1.11 §7.3, Appendix E: a time method other
 * than "point"), whose value stands for a cell rather than its stamp.
 */
export function isTimeStatistic(cellMethods: string): boolean {
  const method = timeMethod(cellMethods);
  return method !== null && method !== 'point';
}

/**
 * The time cell of a variable's stamps: the one its source states; else the step centred on the
 * stamp for a mean, what CF 1.11 §7.1 lets a reader assume of a coordinate without bounds; the
 * instant for a value without a time method (or `time: point`); undefined for another statistic
 * without bounds (a daily maximum over a local solar day, which no offset from a stamp states).
 */
export function timeCellOf(info: Pick<VariableInfo, 'cellMethods' | 'stepMs' | 'timeCell'>): TimeCell | undefined {
  if (info.timeCell) return info.timeCell;
  if (!isTimeStatistic(info.cellMethods)) return INSTANT;
  if (timeMethod(info.cellMethods) === 'mean' && info.stepMs > 0) return [-info.stepMs / 2, info.stepMs / 2];
  return undefined;
}

/** The index of the stamp at ms on a regular axis (a PointSeries', a GridWindow's), -1 where it has none. */
export function stampIndex(axis: { startMs: number; stepMs: number }, ms: number): number {
  if (axis.stepMs <= 0) return ms === axis.startMs ? 0 : -1;
  const k = (ms - axis.startMs) / axis.stepMs;
  return Number.isInteger(k) ? k : -1;
}

/** A regular time axis of stamps and the cell of their values (a PointSeries', a GridWindow's). */
export interface StampAxis {
  startMs: number;
  stepMs: number;
  /** number of stamps */
  length: number;
  /** absent: the instant */
  timeCell?: TimeCell | undefined;
}

/** The weighted stamps whose sum is an interval's mean: weights[j] for stamp first + j of the axis. */
export interface MeanWeights {
  first: number;
  weights: Float64Array;
}

/**
 * The weights that give the mean over [fromMs, toMs) from the axis' stamps, or null when the
 * axis' cells (its points, for instants) do not reach over the whole interval.
 */
export function meanWeights(axis: StampAxis, fromMs: number, toMs: number): MeanWeights | null {
  const { startMs, stepMs, length } = axis;
  const [a, b] = axis.timeCell ?? INSTANT;
  if (!(toMs > fromMs) || !(stepMs > 0) || length === 0) return null;
  const stamp = (k: number) => startMs + k * stepMs;
  const lo = Math.max(0, Math.floor((fromMs - b - startMs) / stepMs));
  const hi = Math.min(length - 1, Math.ceil((toMs - a - startMs) / stepMs));
  const w = new Float64Array(hi - lo + 1);
  if (b > a) {
    if (stamp(0) + a > fromMs || stamp(length - 1) + b < toMs) return null;
    for (let k = lo; k <= hi; k++) w[k - lo] = Math.max(0, Math.min(toMs, stamp(k) + b) - Math.max(fromMs, stamp(k) + a));
  } else {
    if (stamp(0) + a > fromMs || stamp(length - 1) + a < toMs) return null;
    // Each segment between points k and k + 1 inside the interval adds its trapezoid.
    for (let k = lo; k < hi; k++) {
      const p = stamp(k) + a;
      const u = Math.max(fromMs, p);
      const v = Math.min(toMs, p + stepMs);
      if (!(v > u)) continue;
      const fu = (u - p) / stepMs;
      const fv = (v - p) / stepMs;
      w[k - lo]! += ((v - u) * (2 - fu - fv)) / 2;
      w[k + 1 - lo]! += ((v - u) * (fu + fv)) / 2;
    }
  }
  let total = 0;
  for (const x of w) total += x;
  if (!(total > 0)) return null;
  let first = 0;
  let last = w.length - 1;
  while (w[first] === 0) first++;
  while (w[last] === 0) last--;
  return { first: lo + first, weights: w.slice(first, last + 1).map((x) => x / total) };
}

/**
 * The weighted sum of the stamps `weights` names, read as `values[offset + k * stride]` for
 * stamp k (a window's cell is strided by the cells of a time step); NaN when the weights are null
 * or a stamp is missing.
 */
export function weightedValue(values: ArrayLike<number>, weights: MeanWeights | null, offset = 0, stride = 1): number {
  if (!weights) return Number.NaN;
  let sum = 0;
  for (let j = 0; j < weights.weights.length; j++) {
    const v = values[offset + (weights.first + j) * stride];
    if (v === undefined) return Number.NaN;
    sum += weights.weights[j]! * v;
  }
  return sum;
}

/** The weights of each of `hours` hours from firstMs (hour k is [firstMs + k h, firstMs + (k + 1) h)), read once for many cells. */
export function hourWeights(axis: StampAxis, firstMs: number, hours: number): (MeanWeights | null)[] {
  return Array.from({ length: hours }, (_, k) => meanWeights(axis, firstMs + k * HOUR_MS, firstMs + (k + 1) * HOUR_MS));
}

type Series = Pick<PointSeries, 'startMs' | 'stepMs' | 'values' | 'timeCell'>;

const axisOf = (series: Series): StampAxis => ({
  startMs: series.startMs,
  stepMs: series.stepMs,
  length: series.values.length,
  timeCell: series.timeCell,
});

/** A point series' mean over [fromMs, toMs); NaN where it does not cover it. */
export function meanOver(series: Series, fromMs: number, toMs: number): number {
  return weightedValue(series.values, meanWeights(axisOf(series), fromMs, toMs));
}

/** A point series' mean over each of `hours` hours from firstMs; NaN for an hour it does not cover. */
export function hourMeans(series: Series, firstMs: number, hours: number): Float64Array {
  return Float64Array.from(hourWeights(axisOf(series), firstMs, hours), (w) => weightedValue(series.values, w));
}

/** The `timeCell` member a source's read of the variable carries (PointSeries, GridWindow): timeCellOf, when known. */
export function timeCellField(info: Pick<VariableInfo, 'cellMethods' | 'stepMs' | 'timeCell'>): { timeCell?: TimeCell } {
  const cell = timeCellOf(info);
  return cell ? { timeCell: cell } : {};
}
