import { LoadingCache } from '@fieldcast/caches';
import type { HourlyQuery } from '@fieldcast/schemas';
import { forecastBoundaryMs, type GridSource, weatherVersion } from '@fieldcast/weather';
import type { HourlyQuantity } from './domain/hourly-series.js';

/**
 * Point series already written, as their JSON text, least recently used out: one explicit,
 * bounded, keyed cache (docs/decisions/0036-caches.md,
 * docs/decisions/0112-insight-point-series-speed.md). Bounded by the characters kept (a year of
 * ET is about 780,000), not by entries; a text over the bound is not kept, nor a failed
 * computation.
 */
export type SeriesTextCache = LoadingCache<string>;

export function seriesTextCache(maxChars = 64_000_000): SeriesTextCache {
  return new LoadingCache(maxChars, (text) => text.length);
}

/**
 * The key names everything a point series' text depends on: the weather served (weatherVersion,
 * which moves whenever the synced stores are reloaded: docs/decisions/0251-synced-stores-registry.md),
 * the quantity and its unit, the point as given, the hours and start and end as given (both are
 * echoed), and the forecast boundary at `nowMs`, which decides each hour's products (spec 2.7)
 * and so moves every key on at each whole hour.
 */
export function seriesTextKey(
  weather: GridSource,
  quantity: HourlyQuantity,
  latitude: number,
  longitude: number,
  query: HourlyQuery,
  nowMs: number,
): string {
  const unit = quantity === 'evapotranspiration' ? query.unit : '';
  return `${weatherVersion(weather)}|${quantity}|${unit}|${latitude}|${longitude}|${query.firstMs}|${query.lastMs}|${query.startTime}|${query.endTime}|${forecastBoundaryMs(nowMs)}`;
}
