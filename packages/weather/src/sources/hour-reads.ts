/**
 * The stamps a reader reads for whole hours of a variable (docs/decisions/0379-time-cells-of-mean-rates.md):
 * those whose time cells reach into the hours, by the cell of the source that would answer
 * (grid/time-cells.ts), so a mean that ends at its stamp is read one stamp later than one that
 * starts there, and a read reaches no further than the hours need.
 */
import type { GridSource, TimeRange, VariableId } from '../grid/grid-source.js';
import { timeCellOf } from '../grid/time-cells.js';
import { answeringSource, type Place } from './composite-source.js';

const HOUR_MS = 3_600_000;

/**
 * The range (inclusive) of stamps whose cells overlap the hours from firstMs to lastMs, each
 * [h, h + 1 h): for a mean over [s + a, s + b], the stamps s with s + b > firstMs and
 * s + a < lastMs + 1 h; for instants, the stamps up to a step beyond, the curve's ends between
 * them.
 */
export function hoursReadRange(source: GridSource, variable: VariableId, place: Place, firstMs: number, lastMs: number): TimeRange {
  const hours = { startMs: firstMs, endMs: lastMs };
  const info = answeringSource(source, variable, place, hours)
    .variables()
    .find((v) => v.id === variable);
  const stepMs = info && info.stepMs > 0 ? info.stepMs : HOUR_MS;
  const [a, b] = (info && timeCellOf(info)) ?? [0, 0];
  if (b > a) return { startMs: firstMs - b + 1, endMs: lastMs + HOUR_MS - a - 1 };
  return { startMs: firstMs + a - stepMs + 1, endMs: lastMs + HOUR_MS + a + stepMs - 1 };
}

/**
 * The range an hour's short-crop ET inputs are read over, for the hours from firstMs to lastMs:
 * the instants (temperature, dewpoint, wind) at each hour's start and the stamps each hour's
 * shortwave mean takes (ASCE-EWRI 2005 eq. 1 for one hour; docs/decisions/0379-time-cells-of-mean-rates.md).
 */
export function etHoursReadRange(source: GridSource, place: Place, firstMs: number, lastMs: number): TimeRange {
  const sw = hoursReadRange(source, 'surface_downwelling_shortwave_flux_in_air', place, firstMs, lastMs);
  return { startMs: Math.min(firstMs, sw.startMs), endMs: Math.max(lastMs, sw.endMs) };
}
