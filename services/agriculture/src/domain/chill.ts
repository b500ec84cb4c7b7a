import { UnavailableError } from '@fieldcast/kit';
import { accumulateChill } from '@fieldcast/science';
import { CHILL_UNITS, chillSeasonStart, type ChillLocationResult, type ChillQuery, dateMs } from '@fieldcast/schemas';
import type { GridSource, TimeRange } from '@fieldcast/weather';
import { inCelsius } from './degree-day-totals.js';
import { roundOutput } from './output-rounding.js';
import { checkWork, MAX_DEGREE_DAY_CELL_DAYS, POINT_CELLS } from './work-limits.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The hours of startDate 00:00Z to endDate 23:00Z, both included. */
export function chillHours(start: string, end: string): TimeRange {
  return { startMs: dateMs(start), endMs: dateMs(end) + DAY_MS - HOUR_MS };
}

/**
 * Chill at a point (docs/decisions/0241-chill-endpoint.md): hourly air temperature bilinear
 * between grid points (GridSource.pointSeries), in °C, through the science package's model. The
 * work counts as the degree days do, the 4 grid points times the days, so the one limit applies.
 */
export async function locationChill(
  source: GridSource,
  query: ChillQuery,
  latitude: number,
  longitude: number,
  limit = MAX_DEGREE_DAY_CELL_DAYS,
): Promise<ChillLocationResult> {
  const start = query.start ?? chillSeasonStart(query.end, latitude);
  const hours = chillHours(start, query.end);
  checkWork(POINT_CELLS * Math.round((hours.endMs + HOUR_MS - hours.startMs) / DAY_MS), limit);
  // a GridRequestError is the caller's: the error table answers it with a 400
  const temps = inCelsius(await source.pointSeries('air_temperature', longitude, latitude, hours));
  const total = accumulateChill(query.model, temps);
  if (!Number.isFinite(total)) {
    throw new UnavailableError('weather_data_missing', 'The weather source has no temperatures for some of these hours at this place');
  }
  return {
    latitude,
    longitude,
    startDate: start,
    endDate: query.end,
    model: query.model,
    units: CHILL_UNITS[query.model],
    chill: roundOutput(total),
  };
}
