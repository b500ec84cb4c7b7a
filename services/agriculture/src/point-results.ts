import { LoadingCache } from '@fieldcast/caches';
import type { ChillLocationResult, ChillQuery, DegreeDayLocationResult, DegreeDayQuery } from '@fieldcast/schemas';
import { forecastBoundaryMs, type GridSource, weatherVersion } from '@fieldcast/weather';

/**
 * Results at points already computed, least recently used out
 * (docs/decisions/0245-chill-work-in-cell-hours.md; as the insight area keeps its point series,
 * docs/decisions/0112-insight-point-series-speed.md): growers poll the same orchards and fields,
 * and a batch of them is mostly the places of the last one. Weighed by the days a result holds
 * (1 for a total, plus its daily values), at most 500,000 per kind (about 50 MB); a failed
 * computation is not kept.
 */
export type PointResults<R> = LoadingCache<R>;

export function pointResults<R extends { daily?: unknown[] }>(maxWeight = 500_000): PointResults<R> {
  return new LoadingCache<R>(maxWeight, (result) => 1 + (result.daily?.length ?? 0));
}

/**
 * The results at a batch's points, in their order: those kept, and the others computed together by
 * one call of `compute` with those points (LoadingCache.getMany), each kept under `keyOf` it.
 */
export function resultsAt<P, R>(
  results: PointResults<R>,
  points: readonly P[],
  keyOf: (point: P) => string,
  compute: (points: P[]) => Promise<R[]>,
): Promise<R[]> {
  return results.getMany(points.map(keyOf), (missing) => compute(missing.map((i) => points[i]!)));
}

export type DegreeDayPointResults = PointResults<DegreeDayLocationResult>;
export type ChillPointResults = PointResults<ChillLocationResult>;

/*
 * A key names everything its result depends on: the weather served (weatherVersion, which moves
 * whenever the synced stores are reloaded: docs/decisions/0251-synced-stores-registry.md), the point
 * as given, the resolved query, and the forecast boundary at `nowMs` (the current UTC hour),
 * after which days come from the forecast, so every key moves on at the whole hour.
 */

export function degreeDayPointKey(weather: GridSource, latitude: number, longitude: number, q: DegreeDayQuery, nowMs: number): string {
  return `${weatherVersion(weather)}|${latitude}|${longitude}|${q.base}|${q.scale}|${q.start}|${q.end}|${q.method}|${q.cap ?? ''}|${q.cutoff ?? ''}|${q.daily === true}|${forecastBoundaryMs(nowMs)}`;
}

export function chillPointKey(weather: GridSource, latitude: number, longitude: number, q: ChillQuery, nowMs: number): string {
  return `${weatherVersion(weather)}|${latitude}|${longitude}|${q.model}|${q.start ?? ''}|${q.end}|${q.daily === true}|${forecastBoundaryMs(nowMs)}`;
}
