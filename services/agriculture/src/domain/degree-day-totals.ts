import {
  accumulateDegreeDays,
  celsiusToFahrenheit,
  dailyDegreeDays,
  fahrenheitToCelsius,
  usesNextMinimum,
  type DegreeDayMethod,
  type DegreeDayOptions,
} from '@fieldcast/science';
import type { DegreeDayQuery } from '@fieldcast/schemas';
import type { GridWindow, PointSeries } from '@fieldcast/weather';

/** A temperature unit as UDUNITS spells it in GridSource variables, against degrees Celsius. */
interface TemperatureUnit {
  fromCelsius(c: number): number;
  toCelsius(t: number): number;
  /** size of one degree of this unit in Celsius degrees' terms: degrees per Celsius degree */
  perCelsiusDegree: number;
}

const UNITS: Record<string, TemperatureUnit> = {
  degC: { fromCelsius: (c) => c, toCelsius: (t) => t, perCelsiusDegree: 1 },
  K: { fromCelsius: (c) => c + 273.15, toCelsius: (t) => t - 273.15, perCelsiusDegree: 1 },
  degF: { fromCelsius: celsiusToFahrenheit, toCelsius: fahrenheitToCelsius, perCelsiusDegree: 1.8 },
};
const SCALE_UNIT = { celsius: 'degC', fahrenheit: 'degF' } as const;

/** The conversion of a source's temperatures in `units` to degrees Celsius. */
export function celsiusOf(units: string): (t: number) => number {
  const unit = UNITS[units];
  if (!unit) throw new Error(`temperature units ${units} are not supported`);
  return unit.toCelsius;
}

/** How one request's thresholds apply to temperatures in the source's units. */
export interface DegreeDayRule {
  /** base and cap expressed in the source's units */
  options: DegreeDayOptions;
  /** multiplies a total in source degree days into the requested scale's degree days */
  factor: number;
}

/**
 * The request's base and cap (in the requested scale) moved into the source's units, so the
 * method runs on the source values as they are (no per-value conversion in the hot loop), and
 * the total scaled back. Exact, not an approximation: every method here is invariant under the
 * affine change of scale when the thresholds correspond (packages/science degree-days.ts;
 * McMaster & Wilhelm 1997 define the methods on differences from the base), so degree days in
 * the requested scale are the source-unit degree days times the ratio of degree sizes.
 */
export function degreeDayRule(
  query: Pick<DegreeDayQuery, 'base' | 'cap' | 'cutoff' | 'method' | 'scale'>,
  sourceUnits: string,
): DegreeDayRule {
  const source = UNITS[sourceUnits];
  if (!source) throw new Error(`temperature units ${sourceUnits} are not supported`);
  const requested = UNITS[SCALE_UNIT[query.scale]]!;
  const move = (t: number) => source.fromCelsius(requested.toCelsius(t));
  const method: DegreeDayMethod = query.method;
  return {
    options: {
      method,
      base: move(query.base),
      ...(query.cutoff === undefined ? {} : { cutoff: query.cutoff }),
      ...(query.cap === undefined ? {} : { cap: move(query.cap) }),
    },
    factor: requested.perCelsiusDegree / source.perCelsiusDegree,
  };
}

/** Days of a series read for the rule that are not counted: the day after end of a double method (daysOf). */
const daysAfter = (rule: DegreeDayRule) => (usesNextMinimum(rule.options.method ?? 'average') ? 1 : 0);

/** Degree days accumulated over a point's daily series, in the requested scale. */
export function pointTotal(tmax: PointSeries, tmin: PointSeries, rule: DegreeDayRule): number {
  const days = tmax.values.length - daysAfter(rule);
  return accumulateDegreeDays(tmax.values, tmin.values, rule.options, 0, Math.max(0, days)) * rule.factor;
}

/** Each counted day's degree days at a point in the source's degrees (times rule.factor for the requested scale): the days pointTotal sums. */
export function pointDays(tmax: PointSeries, tmin: PointSeries, rule: DegreeDayRule): Float64Array {
  const days = Math.max(0, tmax.values.length - daysAfter(rule));
  const all = dailyDegreeDays(tmax.values, tmin.values, rule.options);
  return Float64Array.from(all.subarray(0, days));
}

/**
 * Degree days accumulated per cell of two aligned windows ([t][lat][lon]), in the requested
 * scale, row-major [lat][lon]. One pass of the science method over the whole window (options
 * resolved once), then a running sum per cell: two typed arrays, nothing allocated per cell.
 * With `running`, also each cell's running total at the end of every counted day ([day][lat][lon],
 * the last day's layer equal to the totals), for a field's daily values
 * (docs/decisions/0510-field-daily-statistics.md): written over the daily values the method
 * already holds, so they cost no further memory, each summed in day order as the total is.
 */
export function cellAccumulation(
  tmax: GridWindow,
  tmin: GridWindow,
  rule: DegreeDayRule,
  running: boolean,
): { totals: Float64Array; running?: Float64Array } {
  const nCells = tmax.lats.length * tmax.lons.length;
  if (tmin.lats.length * tmin.lons.length !== nCells || tmin.nt !== tmax.nt) throw new Error('tmax and tmin windows are not aligned');
  const daily = dailyDegreeDays(tmax.values, tmin.values, rule.options, undefined, Math.max(1, nCells));
  const totals = new Float64Array(nCells);
  const days = Math.max(0, tmax.nt - daysAfter(rule));
  for (let t = 0, o = 0; t < days; t++, o += nCells) {
    for (let c = 0; c < nCells; c++) totals[c]! += daily[o + c]!;
    if (running) for (let c = 0; c < nCells; c++) daily[o + c] = totals[c]! * rule.factor;
  }
  for (let c = 0; c < nCells; c++) totals[c]! *= rule.factor;
  return running ? { totals, running: daily.subarray(0, days * nCells) as Float64Array } : { totals };
}
