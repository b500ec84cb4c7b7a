import { type BBox, type DailyExtremes, type GridSource, type GridWindow, type PointSeries, type TimeRange } from '@fieldcast/weather';

/**
 * Daily maximum and minimum temperature at a point, bilinear in space (GridSource.dailyExtremesAt),
 * for every day of the range (daily values are stamped 00:00Z of their date, docs/architecture.md §6).
 * Days past the forecast boundary come from the forecast product; nothing is clipped.
 */
export async function dailyExtremesAt(source: GridSource, lon: number, lat: number, days: TimeRange): Promise<DailyExtremes<PointSeries>> {
  return source.dailyExtremesAt(lon, lat, days);
}

/** Daily extremes on the cells whose centres lie in bbox (GridSource.dailyExtremesIn). */
export async function dailyExtremesIn(source: GridSource, bbox: BBox, days: TimeRange): Promise<DailyExtremes<GridWindow>> {
  return source.dailyExtremesIn(bbox, days);
}
