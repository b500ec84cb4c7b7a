/**
 * The stamps a reader reads for whole hours of a variable (docs/decisions/0379-time-cells-of-mean-rates.md):
 * those whose time cells reach into the hours, by the cell of the source that would answer
 * (grid/time-cells.ts), so a mean that ends at its stamp is read one stamp later than one that
 * starts there, and a read reaches no further than the hours need.
 */
import { ET_INPUT_VARIABLES, type GridSource, type TimeRange, type VariableId } from '../grid/grid-source.js';
import { meanOver, timeCellOf } from '../grid/time-cells.js';
import { answeringSource, type Place } from './composite-source.js';

const HOUR_MS = 3_600_000;

/**
 * The range (inclusive) of stamps whose cells overlap the hours from firstMs to lastMs, each
 * [h, h + 1 h): for a mean over [s + a, s + b], the stamps s with s + b > firstMs and
 * s + a < lastMs + 1 h; for instants, the stamps up to a step beyond, the curve's ends between
 * them. Within the source's coverage: a stamp outside it cannot be read, and a source may refuse
 * a range reaching past it (the synthetic world does) although the hours' own stamps are inside,
 * as at the coverage's first hour, whose first stamp's cell begins before it.
 */
export function hoursReadRange(source: GridSource, variable: VariableId, place: Place, firstMs: number, lastMs: number): TimeRange {
  const hours = { startMs: firstMs, endMs: lastMs };
  const info = answeringSource(source, variable, place, hours)
    .variables()
    .find((v) => v.id === variable);
  const stepMs = info && info.stepMs > 0 ? info.stepMs : HOUR_MS;
  const [a, b] = (info && timeCellOf(info)) ?? [0, 0];
  if (b > a) return withinCoverage(source, { startMs: firstMs - b + 1, endMs: lastMs + HOUR_MS - a - 1 });
  return withinCoverage(source, { startMs: firstMs + a - stepMs + 1, endMs: lastMs + HOUR_MS + a + stepMs - 1 });
}

/** The part of a range inside the source's coverage; the range itself where none is, for the source to refuse. */
function withinCoverage(source: GridSource, range: TimeRange): TimeRange {
  const c = source.coverage();
  const startMs = Math.max(range.startMs, c.startMs);
  const endMs = Math.min(range.endMs, c.endMs);
  return startMs <= endMs ? { startMs, endMs } : range;
}

/**
 * The range an hour's short-crop ET inputs are read over, for the hours from firstMs to lastMs:
 * the instants (temperature, dewpoint, wind) at each hour's start and the stamps each hour's
 * shortwave mean takes (ASCE-EWRI 2005 eq. 1 for one hour; docs/decisions/0379-time-cells-of-mean-rates.md).
 */
export function etHoursReadRange(source: GridSource, place: Place, firstMs: number, lastMs: number): TimeRange {
  const sw = hoursReadRange(source, ET_INPUT_VARIABLES.shortwave, place, firstMs, lastMs);
  return { startMs: Math.min(firstMs, sw.startMs), endMs: Math.max(lastMs, sw.endMs) };
}

/** The short-crop ET inputs of each hour [t, t + 1 h) at a point, one per stamp t of the source. */
export interface EtHourInputs {
  /** the first hour's start and the step between hours (the source's) */
  startMs: number;
  stepMs: number;
  /** °C, °C, m s-1 at each hour's start: instants */
  airTemperature: Float64Array;
  dewpoint: Float64Array;
  windSpeed: Float64Array;
  /** W m-2, the mean over the hour itself (NaN where the source's cells do not cover it) */
  shortwave: Float64Array;
}

/**
 * The inputs of the hours starting at the source's stamps from firstMs to lastMs at a point, as
 * ASCE-EWRI 2005 eq. 1 takes them for one hour: the instants at the hour's start and the
 * shortwave of the hour, from the stamps whose cells cover it, whichever interval the source's
 * stamps stand for (docs/decisions/0379-time-cells-of-mean-rates.md). One read of the inputs.
 */
export async function etHourInputsAt(source: GridSource, lon: number, lat: number, firstMs: number, lastMs: number): Promise<EtHourInputs> {
  const inputs = await source.etInputsAt(lon, lat, etHoursReadRange(source, { lon, lat }, firstMs, lastMs));
  const t = inputs.airTemperature;
  const step = t.stepMs;
  const k0 = step > 0 ? Math.max(0, Math.ceil((firstMs - t.startMs) / step)) : 0;
  const k1 = step > 0 ? Math.min(t.values.length - 1, Math.floor((lastMs - t.startMs) / step)) : -1;
  const n = Math.max(0, k1 - k0 + 1);
  const at = (values: ArrayLike<number>) => Float64Array.from({ length: n }, (_, i) => values[k0 + i] ?? Number.NaN);
  const startMs = t.startMs + k0 * step;
  return {
    startMs,
    stepMs: step,
    airTemperature: at(t.values),
    dewpoint: at(inputs.dewpoint.values),
    windSpeed: at(inputs.windSpeed.values),
    shortwave: Float64Array.from({ length: n }, (_, i) => meanOver(inputs.shortwave, startMs + i * step, startMs + i * step + HOUR_MS)),
  };
}
