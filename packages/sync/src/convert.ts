/**
 * Turning decoded GRIB fields into Fieldcast's variables (docs/decisions/0230-sync-sources-and-variables.md): units to the ones the
 * GridSource contract promises (through the ingest's one conversion table), 10 m wind components
 * to the 2 m wind speed ET needs, and statistics over intervals (accumulations, averages) to mean
 * rates over the time between consecutive steps.
 */
import type { GribField } from '@fieldcast/grib2';
import { timeUnitSeconds } from '@fieldcast/grib2';
import { windSpeedAt2m } from '@fieldcast/science';
import { type VariableId, unitConversion } from '@fieldcast/weather';
import { StepDataError } from './errors.js';

/** `values` in `units` converted to the variable's canonical units, into a new array. */
export function toCanonical(variable: VariableId, units: string, values: Float32Array): Float32Array {
  const c = unitConversion(variable, units);
  if (!c) throw new StepDataError(`${units} cannot be converted to the units of ${variable}`);
  const out = new Float32Array(values.length);
  for (let k = 0; k < values.length; k++) out[k] = values[k]! * c.scale + c.offset;
  return out;
}

/**
 * The 2 m wind speed from wind components measured `heightM` above ground: the speed of the
 * vector, then the logarithmic profile of FAO-56 eq. 47 (science's windSpeedAt2m).
 */
export function windSpeedAt2mFromComponents(u: Float32Array, v: Float32Array, heightM: number): Float32Array {
  if (u.length !== v.length) throw new StepDataError(`wind components of ${u.length} and ${v.length} values`);
  const out = new Float32Array(u.length);
  for (let k = 0; k < u.length; k++) out[k] = windSpeedAt2m(Math.hypot(u[k]!, v[k]!), heightM);
  return out;
}

/** The interval a template 4.8 field covers (UTC ms), from the message: forecast time to the end of the overall interval. */
export function statisticInterval(field: GribField): { startMs: number; endMs: number } {
  const p = field.product;
  if (p.template !== 8 || p.intervalEndMs === undefined || !p.statistics?.length)
    throw new StepDataError(`message at byte ${field.messageOffset} is not statistically processed (product template 4.${p.template})`);
  const startMs = field.referenceTimeMs + timeUnitSeconds(p.timeUnit, p.forecastTime) * 1000;
  // The time ranges (octets 47-58) must add up to the interval the end time closes; WMO's note to
  // template 4.8 ties them, and a message where they disagree cannot be placed in time.
  const lengthMs = p.statistics.reduce((sum, s) => sum + timeUnitSeconds(s.rangeUnit, s.rangeLength) * 1000, 0);
  if (p.statistics.length === 1 && startMs + lengthMs !== p.intervalEndMs)
    throw new StepDataError(
      `message at byte ${field.messageOffset}: interval from ${new Date(startMs).toISOString()} of ${lengthMs / 3.6e6} h does not end at ${new Date(p.intervalEndMs).toISOString()}`,
    );
  return { startMs, endMs: p.intervalEndMs };
}

/** A mean rate per second over (startMs, endMs], in the field's units per second. */
export interface IntervalRate {
  startMs: number;
  endMs: number;
  perSecond: Float32Array;
}

interface Integral {
  startMs: number;
  endMs: number;
  /** The quantity integrated over [startMs, endMs] (an accumulation, or an average times its seconds). */
  values: Float32Array;
}

/**
 * Mean rates between consecutive steps of one run from statistics over intervals that share a
 * start: ECMWF accumulates from the start of the forecast; GFS averages and accumulates from the
 * last 6-hourly restart. The integral over [start, end] less the one over [start, previous end],
 * divided by the seconds between, is the mean over (previous end, end]. When the interval starts
 * where no earlier step of this run ended inside it (a restart, or the first step read), the
 * statistic over its own interval is the rate. Fed the steps of one run in order, one per quantity.
 */
export class IntervalRates {
  private readonly last = new Map<string, Integral>();

  /**
   * `statistic` is the field's code table 4.10 process: 0 average or 1 accumulation. Null when the
   * interval is empty (ECMWF's step 0). Quantities that cannot be negative (`nonNegative`) are
   * floored at 0, as the difference of two packed accumulations can dip below it by their rounding.
   */
  rate(key: string, field: GribField, values: Float32Array, options: { nonNegative: boolean }): IntervalRate | null {
    const { startMs, endMs } = statisticInterval(field);
    const process = field.product.statistics![0]!.process;
    if (process !== 0 && process !== 1)
      throw new StepDataError(`${key}: statistical process ${process} (code table 4.10) is neither an average nor an accumulation`);
    const seconds = (endMs - startMs) / 1000;
    const integral = process === 1 ? values : values.map((v) => v * seconds);
    const previous = this.last.get(key);
    if (previous && endMs <= previous.endMs)
      throw new StepDataError(
        `${key}: interval ending ${new Date(endMs).toISOString()} after one ending ${new Date(previous.endMs).toISOString()}`,
      );
    this.last.set(key, { startMs, endMs, values: integral });
    if (seconds === 0) return null;
    const chained = previous !== undefined && previous.startMs === startMs && previous.endMs > startMs;
    const fromMs = chained ? previous.endMs : startMs;
    const span = (endMs - fromMs) / 1000;
    const perSecond = new Float32Array(values.length);
    for (let k = 0; k < values.length; k++) {
      const r = (integral[k]! - (chained ? previous.values[k]! : 0)) / span;
      perSecond[k] = options.nonNegative && r < 0 ? 0 : r;
    }
    return { startMs: fromMs, endMs, perSecond };
  }
}
