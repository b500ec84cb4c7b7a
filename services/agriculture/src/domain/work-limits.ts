import { polygonsBBox, unwrapLongitudes } from '@fieldcast/geo';
import { RequestTooLargeError } from '@fieldcast/kit';
import { usesNextMinimum } from '@fieldcast/science';
import { dateMs, type DegreeDayQuery } from '@fieldcast/schemas';
import { answeringSource, centresWithin, type GridSource, type TimeRange, type VariableId } from '@fieldcast/weather';
import type { FieldRecord } from './fields.js';

/**
 * Most work one degree-day request may ask for, in grid cells x days: the daily extremes of each
 * cell are read and summed once per day, so time and memory (8 bytes per cell-day) grow with it.
 * 25 million is what the synthetic world reads in one window (50 million values), and it lets
 * through a point over every accepted day, a 65,000 km² field (the spec's largest asset) at 42°
 * over about 345 days, and a 0.7° x 0.7° field over 2015 to today + 7 days
 * (docs/decisions/0050-degree-day-work-limit.md).
 */
export const MAX_DEGREE_DAY_CELL_DAYS = 25_000_000;

/**
 * Most work one chill request may ask for, in grid cells x hours: chill reads hourly temperature,
 * one value per cell-hour, and 50 million is what the synthetic world reads in one window, the
 * degree-day limit's 50 million values (docs/decisions/0245-chill-work-in-cell-hours.md).
 */
export const MAX_CHILL_CELL_HOURS = 50_000_000;

/** A point is bilinear between the four grid points around it (docs/architecture.md §6). */
export const POINT_CELLS = 4;

const DAY_MS = 86_400_000;

/**
 * The days read: startDate..endDate inclusive, the daily steps stamped 00:00Z of each date
 * (docs/architecture.md §6), and the day after for the double methods, which use its minimum
 * (docs/decisions/0240-degree-day-cutoffs.md).
 */
export function daysOf(query: Pick<DegreeDayQuery, 'start' | 'end' | 'method'>): TimeRange {
  const extra = usesNextMinimum(query.method) ? DAY_MS : 0;
  return { startMs: dateMs(query.start), endMs: dateMs(query.end) + extra };
}

/** Days read (daysOf), both ends included. */
export function dayCount(query: DegreeDayQuery): number {
  const { startMs, endMs } = daysOf(query);
  return Math.round((endMs - startMs) / DAY_MS) + 1;
}

/**
 * Cells of the window a field result (margin 0.5 cell) or its contours (margin 1 cell) read: the
 * field's bbox in one continuous longitude frame, grown by the margin, on the grid `variable`
 * (daily maxima by default) comes on. Counted from the geometry and the grid alone, before anything is read.
 */
export function fieldWindowCells(
  source: GridSource,
  field: FieldRecord,
  range: TimeRange,
  margin: number,
  variable: VariableId = 'air_temperature_daily_max',
): number {
  const { polygons } = unwrapLongitudes(field.polygons);
  const [w, s, e, n] = polygonsBBox(polygons);
  const spec = answeringSource(source, variable, { bbox: [Math.max(-180, w), s, Math.min(180, e), n] }, range).grid;
  const south = Math.max(-90, s - spec.dLat * margin),
    north = Math.min(90, n + spec.dLat * margin);
  return (
    centresWithin(w - spec.dLon * margin, e + spec.dLon * margin, spec.lon0, spec.dLon) * centresWithin(south, north, spec.lat0, spec.dLat)
  );
}

/** The work of each degree-day request, in cell-days. */
export const degreeDayWork = {
  location: (query: DegreeDayQuery) => POINT_CELLS * dayCount(query),
  /** the centroid's four cells and the cells within half a cell of the field */
  field: (source: GridSource, field: FieldRecord, query: DegreeDayQuery) =>
    (POINT_CELLS + fieldWindowCells(source, field, daysOf(query), 0.5)) * dayCount(query),
  /** the cells within one cell of the field */
  contours: (source: GridSource, field: FieldRecord, query: DegreeDayQuery) =>
    fieldWindowCells(source, field, daysOf(query), 1) * dayCount(query),
};

/** What a limit refuses: one request (a place or a field), or a batch of them. */
type WorkSubject = 'request' | 'batch';

/** The advice of a refusal: a batch is made smaller by its places, one request by its field. */
const adviceFor = (subject: WorkSubject) => `Ask for fewer days or ${subject === 'batch' ? 'fewer places' : 'a smaller field'}.`;

/** Refuses, before anything is computed, a chill request (or batch) whose work is over the limit. */
export function checkChillWork(cellHours: number, limit = MAX_CHILL_CELL_HOURS, subject: WorkSubject = 'request'): void {
  RequestTooLargeError.refuseOver(cellHours, {
    limit,
    subject,
    unit: 'cell-hours',
    meaning: 'grid cells x hours',
    advice: adviceFor(subject),
  });
}

/** Refuses, before anything is computed, a degree-day request (or batch) whose work is over the limit. */
export function checkWork(cellDays: number, limit = MAX_DEGREE_DAY_CELL_DAYS, subject: WorkSubject = 'request'): void {
  RequestTooLargeError.refuseOver(cellDays, {
    limit,
    subject,
    unit: 'cell-days',
    meaning: 'grid cells x days',
    advice: adviceFor(subject),
  });
}
