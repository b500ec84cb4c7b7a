import { LoadingCache } from '@fieldcast/caches';

/**
 * Point time series of runs already computed, as the JSON text of their per-variable object
 * (spec 2.8), least recently used out past 1,000: one explicit, bounded, keyed cache
 * (docs/decisions/0036-caches.md, docs/decisions/0143-model-series-cache.md).
 *
 * A run's values at a point are fixed for one weather: the run and its error are derived from
 * the clock and the catalog, but the weather a synthetic run reads changes when the synced stores
 * are reloaded (docs/decisions/0251-synced-stores-registry.md), so entries are keyed by it too.
 */
export type SeriesCache = LoadingCache<string>;

export function seriesCache(capacity = 1_000): SeriesCache {
  return new LoadingCache(capacity);
}

/**
 * The key names everything the answer depends on: the weather read (`weatherVersion`, which
 * changes when a sync changes what is served), the run, the variable, the point and the valid
 * times selected (the first and how many, on the run's fixed step), so a run still being produced
 * gets a new entry as its valid times grow.
 */
export function seriesKey(
  weather: string,
  runId: string,
  variable: string,
  latitude: number,
  longitude: number,
  validMs: readonly number[],
): string {
  return `${weather}|${runId}|${variable}|${latitude}|${longitude}|${validMs[0] ?? ''}|${validMs.length}`;
}
