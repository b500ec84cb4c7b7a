import { InvalidRequestError } from '@fieldcast/kit';
import {
  answeringSource,
  GridRequestError,
  type BBox,
  type DailyExtremes,
  type GridSource,
  type GridSpec,
  type GridWindow,
  type PointSeries,
  type TimeRange,
} from '@fieldcast/weather';

/** The grid daily extremes over this bbox come on (a routing source's chosen source's grid). */
export function dailyGrid(source: GridSource, bbox: BBox, days: TimeRange): GridSpec {
  return answeringSource(source, 'air_temperature_daily_max', { bbox }, days).grid;
}

/** A GridRequestError is the caller's fault: 400 with its code as the problem id (docs/interface.md). */
export function asRequestError(err: unknown): unknown {
  return err instanceof GridRequestError ? new InvalidRequestError(err.code, err.message) : err;
}

/**
 * Daily maximum and minimum temperature at a point, bilinear in space (GridSource.dailyExtremesAt),
 * for every day of the range (daily values are stamped 00:00Z of their date, docs/architecture.md §6).
 * Days past the forecast boundary come from the forecast product; nothing is clipped.
 */
export async function dailyExtremesAt(source: GridSource, lon: number, lat: number, days: TimeRange): Promise<DailyExtremes<PointSeries>> {
  try {
    return await source.dailyExtremesAt(lon, lat, days);
  } catch (err) {
    throw asRequestError(err);
  }
}

/** Daily extremes on the cells whose centres lie in bbox (GridSource.dailyExtremesIn). */
export async function dailyExtremesIn(source: GridSource, bbox: BBox, days: TimeRange): Promise<DailyExtremes<GridWindow>> {
  try {
    return await source.dailyExtremesIn(bbox, days);
  } catch (err) {
    throw asRequestError(err);
  }
}
