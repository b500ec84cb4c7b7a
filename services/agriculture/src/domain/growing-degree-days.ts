import { cellWeights, contourBands, cutAtAntimeridian, roundBandEdges } from '@fieldcast/geo';
import { UnavailableError } from '@fieldcast/kit';
import {
  type DegreeDayContourResult,
  type DegreeDayFieldResult,
  type DegreeDayLocationResult,
  type DegreeDayQuery,
  degreeDayQuerySchema,
  MAX_BATCH_LOCATIONS,
} from '@fieldcast/schemas';
import { roundToTenth } from '@fieldcast/science';
import { type BBox, type DailyExtremes, type GridSource, type PointSeries, pointGridSource, type VariableId } from '@fieldcast/weather';
import { dailyExtremesAt } from './daily-temperatures.js';
import { dailyEntries } from './daily-values.js';
import { type DegreeDayRule, degreeDayRule, pointDays, pointTotal } from './degree-day-totals.js';
import { degreeDayTotals, fieldGrid } from './field-grid.js';
import type { FieldRecord } from './fields.js';
import { outputPolygons } from './output-rounding.js';
import { checkWork, daysOf, degreeDayWork, MAX_DEGREE_DAY_CELL_DAYS } from './work-limits.js';

/** The request settings every result repeats (spec 2.6), scale capitalised. */
function settingsOf(query: DegreeDayQuery) {
  return {
    startDate: query.start,
    endDate: query.end,
    baseTemperature: query.base,
    scale: query.scale === 'celsius' ? ('Celsius' as const) : ('Fahrenheit' as const),
  };
}

/** A field's path as results name it (spec 2.6). */
export const fieldPath = (id: string) => `/fields/${id}`;

/**
 * The contours link carries start and end (always, resolved, so the link names the same days
 * tomorrow) and every other parameter the caller gave (spec 2.6; docs/decisions/0031-degree-day-query.md).
 */
function contoursPath(id: string, query: DegreeDayQuery): string {
  const params = new URLSearchParams({ start: query.start, end: query.end });
  for (const name of ['base', 'scale', 'method', 'cap', 'cutoff'] as const) {
    const value = query.given[name];
    if (value !== undefined) params.set(name, value);
  }
  return `/growing-degree-days/${id}/contours?${params.toString()}`;
}

const noData = () =>
  new UnavailableError('weather_data_missing', 'The weather source has no temperatures for some of these days at this place');

/** The total at a point and, with include=daily, each day's value beside it. */
function pointResult(extremes: DailyExtremes<PointSeries>, rule: DegreeDayRule, query: DegreeDayQuery) {
  const total = pointTotal(extremes.tmax, extremes.tmin, rule);
  if (!Number.isFinite(total)) throw noData();
  return {
    total,
    ...(query.daily ? { daily: dailyEntries('degreeDays', query.start, pointDays(extremes.tmax, extremes.tmin, rule), rule.factor) } : {}),
  };
}

/** Location result (spec 2.6): degree days at a point, temperatures bilinear between grid points. */
export async function locationDegreeDays(
  source: GridSource,
  query: DegreeDayQuery,
  latitude: number,
  longitude: number,
  limit = MAX_DEGREE_DAY_CELL_DAYS,
): Promise<DegreeDayLocationResult> {
  checkWork(degreeDayWork.location(query), limit);
  const extremes = await dailyExtremesAt(source, longitude, latitude, daysOf(query));
  return locationResult(extremes, query, latitude, longitude);
}

/** The location result of a point's daily extremes. */
function locationResult(
  extremes: DailyExtremes<PointSeries>,
  query: DegreeDayQuery,
  latitude: number,
  longitude: number,
): DegreeDayLocationResult {
  const { total, daily } = pointResult(extremes, degreeDayRule(query, extremes.tmax.units), query);
  return { latitude, longitude, ...settingsOf(query), degreeDays: roundToTenth(total), ...(daily ? { daily } : {}) };
}

/**
 * Location results of many points, in their order (a batch; docs/decisions/0242-batch-requests.md):
 * read together where one source answers every point and reads sub-grids (the synthetic world:
 * the grid points of all of them in one computation, docs/decisions/0306-batch-points-read-together.md),
 * otherwise one after another on the point reads' chunk caches, so points that share grid points
 * and days read them once.
 */
export async function degreeDayPoints(
  source: GridSource,
  points: readonly { longitude: number; latitude: number }[],
  query: DegreeDayQuery,
): Promise<DegreeDayLocationResult[]> {
  const days = daysOf(query);
  const lons = Float64Array.from(points, (p) => p.longitude),
    lats = Float64Array.from(points, (p) => p.latitude);
  const together = points.length > 1 ? pointGridSource(source, DAILY_EXTREMES, bboxOf(lons, lats), days) : null;
  if (together) {
    const extremes = await together.dailyExtremesAtPoints(lons, lats, days);
    return points.map((p, k) => locationResult(extremes[k]!, query, p.latitude, p.longitude));
  }
  const out: DegreeDayLocationResult[] = [];
  for (const p of points) out.push(await locationDegreeDays(source, query, p.latitude, p.longitude));
  return out;
}

const DAILY_EXTREMES: VariableId[] = ['air_temperature_daily_max', 'air_temperature_daily_min'];

/** A growing season in the past, as the warm-up's batches ask for it. */
const WARM_SEASON = { start: '2024-04-01', end: '2024-10-17' };

/**
 * Computes two batches as large as a request may send, of points clustered as a farm's fields are,
 * on `source` (values are not kept): a compute thread's warm-up
 * (docs/decisions/0305-synthetic-reads-compiled-at-start.md). The synthetic world's own warm-up
 * reads a few scattered points; the first batch of a thousand close ones still ran twice as long
 * as the next, its loops compiled for other shapes.
 */
export async function warmDegreeDayPoints(source: GridSource): Promise<void> {
  const query = degreeDayQuerySchema(() => new Date()).parse(WARM_SEASON);
  for (let i = 0; i < 2; i++) {
    const points = Array.from({ length: MAX_BATCH_LOCATIONS }, (_, k) => ({
      longitude: 20 + 40 * i + ((k * 37) % 500) / 100,
      latitude: 30 + ((k * 53) % 500) / 100,
    }));
    await degreeDayPoints(source, points, query);
  }
}

/** The bbox of points (west, south, east, north). */
function bboxOf(lons: Float64Array, lats: Float64Array): BBox {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (let k = 0; k < lons.length; k++) {
    w = Math.min(w, lons[k]!);
    e = Math.max(e, lons[k]!);
    s = Math.min(s, lats[k]!);
    n = Math.max(n, lats[k]!);
  }
  return [w, s, e, n];
}

/** Area-weighted mean, minimum and maximum over the cells with a share of the field. */
export function coveredCellStatistics(totals: Float64Array, weights: Float64Array): { mean: number; min: number; max: number } {
  let sumW = 0,
    sumWV = 0,
    min = Infinity,
    max = -Infinity;
  for (let c = 0; c < totals.length; c++) {
    const w = weights[c]!;
    const v = totals[c]!;
    if (!(w > 0) || Number.isNaN(v)) continue;
    sumW += w;
    sumWV += w * v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { mean: sumWV / sumW, min, max };
}

/**
 * With include=daily, each daily entry of a field's result (its centroid's) and the area-weighted
 * mean, maximum and minimum over the covered cells of their running totals through that day
 * (`running`, [day][cell], as TotalsGrid.running), rounded as every output is, so the last day's
 * are the result's fieldMean, fieldMaximum and fieldMinimum
 * (docs/decisions/0510-field-daily-statistics.md).
 */
export function withFieldDaily<D extends { date: string }>(
  daily: D[] | undefined,
  running: Float64Array | undefined,
  weights: Float64Array,
): (D & { accumulatedFieldMean: number; accumulatedFieldMaximum: number; accumulatedFieldMinimum: number })[] | undefined {
  if (!daily) return undefined;
  if (!running || running.length !== daily.length * weights.length) throw new Error('the running totals do not cover the daily values');
  const n = weights.length;
  return daily.map((day, d) => {
    const { mean, min, max } = coveredCellStatistics(running.subarray(d * n, (d + 1) * n), weights);
    if (![mean, min, max].every(Number.isFinite)) throw noData();
    return {
      ...day,
      accumulatedFieldMean: roundToTenth(mean),
      accumulatedFieldMaximum: roundToTenth(max),
      accumulatedFieldMinimum: roundToTenth(min),
    };
  });
}

/**
 * Field result (spec 2.6, docs/architecture.md §7): the centroid value as the location result would
 * give it, and the area-weighted mean, minimum and maximum over the grid cells the field covers
 * (weights: area of cell ∩ field). One window read per variable over the cells touching the
 * field's bbox (centres within half a cell of it); a field at the antimeridian is one area
 * across it (fieldGrid), so a cell that straddles ±180 is weighted by both sides.
 */
export async function fieldDegreeDays(
  source: GridSource,
  field: FieldRecord,
  query: DegreeDayQuery,
  limit = MAX_DEGREE_DAY_CELL_DAYS,
): Promise<DegreeDayFieldResult> {
  checkWork(degreeDayWork.field(source, field, query), limit);
  const days = daysOf(query);
  const [atCentroid, around] = await Promise.all([
    dailyExtremesAt(source, field.centroid.longitude, field.centroid.latitude, days),
    fieldGrid(source, field, degreeDayTotals(source, days, query), 0.5),
  ]);
  const { total: centroid, daily: atCentroidDaily } = pointResult(atCentroid, degreeDayRule(query, atCentroid.tmax.units), query);
  const weights = cellWeights(around.polygons, around.grid);
  const stats = coveredCellStatistics(around.grid.values, weights);
  if (![stats.mean, stats.min, stats.max].every(Number.isFinite)) throw noData();
  const daily = withFieldDaily(atCentroidDaily, around.grid.running, weights);
  return {
    field: fieldPath(field.id),
    ...settingsOf(query),
    degreeDays: roundToTenth(centroid),
    fieldMean: roundToTenth(stats.mean),
    fieldMaximum: roundToTenth(stats.max),
    fieldMinimum: roundToTenth(stats.min),
    contours: contoursPath(field.id, query),
    ...(daily ? { daily } : {}),
  };
}

/**
 * Contour result (spec 2.6): isobands of the per-cell totals over a grid one cell wider than the
 * field on every side (so the field lies inside the grid's hull; past a pole or a regional
 * store's edge the edge cells are extended, fieldGrid), clipped to the field and flattened to
 * Polygon features. A field at the antimeridian is contoured as one area and every piece is cut
 * at ±180 again (RFC 7946 section 3.1.9); positions are the field's own where they are its, the
 * rest at 6 decimals (outputPolygons). Band edges are round numbers chosen from the grid's
 * range; properties.degreeDays is the band's lower edge (docs/decisions/0032-field-degree-days-and-contours.md).
 */
export async function fieldContours(
  source: GridSource,
  field: FieldRecord,
  query: DegreeDayQuery,
  limit = MAX_DEGREE_DAY_CELL_DAYS,
): Promise<DegreeDayContourResult> {
  checkWork(degreeDayWork.contours(source, field, query), limit);
  const days = daysOf(query);
  const { polygons, grid } = await fieldGrid(source, field, degreeDayTotals(source, days, query), 1, true);
  let min = Infinity,
    max = -Infinity;
  for (const v of grid.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!Number.isFinite(min) || !Number.isFinite(max)) throw noData();
  // Cells without a value are left out, as the field result leaves them (contourBands); a field
  // over none with a value has no contours, as it has no statistics.
  const bands = contourBands(polygons, grid, roundBandEdges(min, max));
  if (bands.length === 0) throw noData();
  return {
    field: fieldPath(field.id),
    ...settingsOf(query),
    type: 'FeatureCollection',
    features: bands.flatMap((band) =>
      outputPolygons(band.polygons.flatMap(cutAtAntimeridian), field.polygons).map((coordinates) => ({
        type: 'Feature' as const,
        geometry: { type: 'Polygon' as const, coordinates },
        properties: { degreeDays: roundToTenth(band.lower) },
      })),
    ),
  };
}
