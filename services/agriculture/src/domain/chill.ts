import { cellWeights } from '@fieldcast/geo';
import { InvalidRequestError, UnavailableError } from '@fieldcast/kit';
import { accumulateChill, roundToTenth } from '@fieldcast/science';
import {
  CHILL_UNITS,
  chillSeasonStart,
  type ChillFieldResult,
  type ChillLocationResult,
  type ChillQuery,
  dateMs,
  DEGREE_DAY_FIRST_DATE,
} from '@fieldcast/schemas';
import type { BBox, GridSource, TimeRange } from '@fieldcast/weather';
import { dailyEntries } from './daily-values.js';
import { celsiusOf } from './degree-day-totals.js';
import { type CellTotalsReader, fieldGrid, type TotalsGrid } from './field-grid.js';
import type { FieldRecord } from './fields.js';
import { coveredCellStatistics, fieldPath, withFieldDaily } from './growing-degree-days.js';
import { checkChillWork, fieldWindowCells, MAX_CHILL_CELL_HOURS, POINT_CELLS } from './work-limits.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The hours of startDate 00:00Z to endDate 23:00Z, both included. */
export function chillHours(start: string, end: string): TimeRange {
  return { startMs: dateMs(start), endMs: dateMs(end) + DAY_MS - HOUR_MS };
}

/**
 * The first day counted: the caller's start, or the season's start at this latitude
 * (docs/decisions/0241-chill-endpoint.md). A season that began before the first day served is
 * refused, naming start, rather than counted from a later day than its own.
 */
function startOf(query: ChillQuery, latitude: number): string {
  if (query.start !== undefined) return query.start;
  const start = chillSeasonStart(query.end, latitude);
  if (start >= DEGREE_DAY_FIRST_DATE) return start;
  const message = `the chill season holding end ${query.end} began ${start} at latitude ${latitude}, before ${DEGREE_DAY_FIRST_DATE}, the first day served: give start`;
  throw new InvalidRequestError('invalid_parameter', message, [{ path: 'start', message }]);
}

const hoursIn = (hours: TimeRange) => Math.round((hours.endMs + HOUR_MS - hours.startMs) / HOUR_MS);

const noData = () =>
  new UnavailableError('weather_data_missing', 'The weather source has no temperatures for some of these hours at this place');

/** Where each hour's temperature lies in a series read for the hours: at `first`, then every `every` steps. */
interface HourStamps {
  first: number;
  every: number;
}

/**
 * The stamps at the whole hours of `hours` in a series of `length` instants from startMs every
 * stepMs. The models count hours: chillR's Chilling_Hours, Utah_Model and Dynamic_Model take one
 * temperature per hour (docs/decisions/0381-chill-reads-whole-hours.md), so a finer series is read
 * at its stamps on the hours, and one without a stamp at every hour (a 3-hourly store) is
 * weather_data_missing rather than each of its steps counted as an hour.
 */
function hourStamps(series: { startMs: number; stepMs: number; length: number }, hours: TimeRange): HourStamps {
  const { startMs, stepMs, length } = series;
  if (!(stepMs > 0 && HOUR_MS % stepMs === 0)) {
    const step = stepMs > 0 ? `every ${stepMs / 60_000} minutes` : 'once';
    throw new UnavailableError(
      'weather_data_missing',
      `The chill models need hourly air temperature; the weather source gives it ${step} here`,
    );
  }
  const offset = hours.startMs - startMs;
  const at = { first: offset / stepMs, every: HOUR_MS / stepMs };
  // a series that starts after the first hour, off the hours, or ends before the last hour lacks some of them
  if (!(Number.isInteger(at.first) && at.first >= 0 && at.first + (hoursIn(hours) - 1) * at.every < length)) throw noData();
  return at;
}

/** The work of each chill request in cell-hours (docs/decisions/0245-chill-work-in-cell-hours.md). */
export const chillWork = {
  location: (query: ChillQuery, latitude: number) => POINT_CELLS * hoursIn(chillHours(startOf(query, latitude), query.end)),
  /** the centroid's four cells and the cells within half a cell of the field, on the hourly temperature's grid */
  field: (source: GridSource, field: FieldRecord, query: ChillQuery) => {
    const hours = chillHours(startOf(query, field.centroid.latitude), query.end);
    return (POINT_CELLS + fieldWindowCells(source, field, hours, 0.5, 'air_temperature')) * hoursIn(hours);
  },
};

/**
 * Chill at a point over the hours in the query's model, and with include=daily each day's chill
 * (the sum of its 24 hours; the Dynamic model's portion counts on the hour it completes, chillR's
 * accounting). A missing hour is weather_data_missing.
 */
async function pointChill(source: GridSource, query: ChillQuery, lon: number, lat: number, start: string) {
  // a GridRequestError is the caller's: the error table answers it with a 400
  const hours = chillHours(start, query.end);
  const series = await source.pointSeries('air_temperature', lon, lat, hours);
  const { first, every } = hourStamps({ startMs: series.startMs, stepMs: series.stepMs, length: series.values.length }, hours);
  const toCelsius = celsiusOf(series.units);
  const temps = Float64Array.from({ length: hoursIn(hours) }, (_, h) => toCelsius(series.values[first + h * every]!));
  const hourly = new Float64Array(temps.length);
  const total = accumulateChill(query.model, temps, hourly);
  if (!Number.isFinite(total)) throw noData();
  if (!query.daily) return { total };
  const days = new Float64Array(hourly.length / 24);
  for (let h = 0; h < hourly.length; h++) days[Math.floor(h / 24)]! += hourly[h]!;
  // the total as the running total sums it, so the last day's accumulated is the total
  return { total: days.reduce((a, v) => a + v, 0), daily: dailyEntries('chill', start, days) };
}

/**
 * Chill at a point (docs/decisions/0241-chill-endpoint.md): hourly air temperature bilinear
 * between grid points (GridSource.pointSeries), in °C, through the science package's model. The
 * work is the 4 grid points times the hours.
 */
export async function locationChill(
  source: GridSource,
  query: ChillQuery,
  latitude: number,
  longitude: number,
  limit = MAX_CHILL_CELL_HOURS,
): Promise<ChillLocationResult> {
  checkChillWork(chillWork.location(query, latitude), limit);
  const start = startOf(query, latitude);
  const { total, daily } = await pointChill(source, query, longitude, latitude, start);
  return {
    latitude,
    longitude,
    startDate: start,
    endDate: query.end,
    model: query.model,
    units: CHILL_UNITS[query.model],
    chill: roundToTenth(total),
    ...(daily ? { daily } : {}),
  };
}

/** Location results of many points, in their order (a batch; docs/decisions/0242-batch-requests.md). */
export async function chillPoints(
  source: GridSource,
  points: readonly { longitude: number; latitude: number }[],
  query: ChillQuery,
): Promise<ChillLocationResult[]> {
  const out: ChillLocationResult[] = [];
  for (const p of points) out.push(await locationChill(source, query, p.latitude, p.longitude));
  return out;
}

/**
 * Chill of each cell whose centre lies in a bbox: one hourly window read, the model run down each
 * cell's hours; with `daily`, also each cell's running total at the end of every day
 * ([day][cell], TotalsGrid.running), summed hour by hour in order as the total is.
 */
function chillTotals(source: GridSource, model: ChillQuery['model'], hours: TimeRange, daily: boolean): CellTotalsReader {
  return {
    variable: 'air_temperature',
    range: hours,
    async read(bbox: BBox): Promise<TotalsGrid> {
      const w = await source.window('air_temperature', bbox, hours);
      const toCelsius = celsiusOf(w.units);
      const nCells = w.lats.length * w.lons.length;
      const { first, every } = hourStamps({ startMs: w.startMs, stepMs: w.stepMs, length: w.nt }, hours);
      const temps = new Float64Array(hoursIn(hours));
      const values = new Float64Array(nCells);
      const hourly = new Float64Array(temps.length);
      const running = daily ? new Float64Array((temps.length / 24) * nCells) : undefined;
      for (let c = 0; c < nCells; c++) {
        for (let h = 0; h < temps.length; h++) temps[h] = toCelsius(w.values[(first + h * every) * nCells + c]!);
        // the model runs once: accumulateChill leaves each hour's chill in `hourly` for the running totals
        values[c] = accumulateChill(model, temps, hourly);
        if (!running) continue;
        let sum = 0;
        for (let h = 0; h < hourly.length; h++) {
          sum += hourly[h]!;
          if (h % 24 === 23) running[((h + 1) / 24 - 1) * nCells + c] = sum;
        }
      }
      return { lats: w.lats, lons: w.lons, dLat: w.dLat, dLon: w.dLon, values, ...(running ? { running } : {}) };
    },
  };
}

/**
 * Chill over a field, shaped as the degree-day field result (spec 2.6; docs/decisions/0032):
 * the centroid's value as the location result gives it, and the area-weighted mean, minimum and
 * maximum over the cells the field covers (fieldGrid, the same cells and weights as degree days),
 * from the hourly temperature of each cell. The default start is the season's at the centroid.
 */
export async function fieldChill(
  source: GridSource,
  field: FieldRecord,
  query: ChillQuery,
  limit = MAX_CHILL_CELL_HOURS,
): Promise<ChillFieldResult> {
  checkChillWork(chillWork.field(source, field, query), limit);
  const start = startOf(query, field.centroid.latitude);
  const hours = chillHours(start, query.end);
  const [centroid, around] = await Promise.all([
    pointChill(source, query, field.centroid.longitude, field.centroid.latitude, start),
    fieldGrid(source, field, chillTotals(source, query.model, hours, query.daily === true), 0.5),
  ]);
  const weights = cellWeights(around.polygons, around.grid);
  const stats = coveredCellStatistics(around.grid.values, weights);
  if (![stats.mean, stats.min, stats.max].every(Number.isFinite)) throw noData();
  const daily = withFieldDaily(centroid.daily, around.grid.running, weights);
  return {
    field: fieldPath(field.id),
    startDate: start,
    endDate: query.end,
    model: query.model,
    units: CHILL_UNITS[query.model],
    chill: roundToTenth(centroid.total),
    fieldMean: roundToTenth(stats.mean),
    fieldMaximum: roundToTenth(stats.max),
    fieldMinimum: roundToTenth(stats.min),
    ...(daily ? { daily } : {}),
  };
}
