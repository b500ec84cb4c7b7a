import { LoadingCache } from '@fieldcast/caches';
import type { ChillLocationResult, ChillQuery } from '@fieldcast/schemas';
import { forecastBoundaryMs } from '@fieldcast/weather';

/**
 * Chill at a point already computed, least recently used out (docs/decisions/0245-chill-work-in-cell-hours.md,
 * as the insight area keeps its point series: docs/decisions/0112-insight-point-series-speed.md).
 * A season of the Dynamic model is thousands of exponentials per request and growers poll the
 * same orchards. Weighed by the days it holds (1 for a total, plus its daily values), at most
 * 500,000 (about 50 MB); a failed computation is not kept.
 */
export type ChillPointCache = LoadingCache<ChillLocationResult>;

export function chillPointCache(maxWeight = 500_000): ChillPointCache {
  return new LoadingCache(maxWeight, (result) => 1 + (result.daily?.length ?? 0));
}

/**
 * The key names everything the result depends on: the point as given, the model, the dates and
 * whether daily values are asked, and the forecast boundary at `nowMs` (the current UTC hour),
 * after which hours come from the forecast, so every key moves on at the whole hour. The weather
 * a process reads does not change while it runs (docs/decisions/0143-model-series-cache.md).
 */
export function chillPointKey(latitude: number, longitude: number, query: ChillQuery, nowMs: number): string {
  return `${latitude}|${longitude}|${query.model}|${query.start ?? ''}|${query.end}|${query.daily === true}|${forecastBoundaryMs(nowMs)}`;
}
