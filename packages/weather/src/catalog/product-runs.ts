/**
 * A product's frames and forecast runs, derived from its cadence, its start, its run schedule and
 * the clock, never stored one by one (docs/architecture.md §6, docs/decisions/0120-product-frames-and-forecast-runs.md).
 *
 * - Valid times lie on the product's cadence from its startTime.
 * - A forecast product runs every `forecastRuns.everyHours` from 00Z; a run initialised at I holds
 *   the valid times in [I, I + horizonHours], is published (complete) at I + publishDelay and
 *   expires at I + retention. Its frames are "forecast frames" (forecast link, runTime I).
 * - The product's own frame list holds one frame per valid time: an analysis frame (runTime =
 *   validTime, no forecast) up to the forecast boundary (the current UTC hour), and the latest
 *   published run's forecast frame after it, up to the end of that run.
 * - Ids: UUID v5 of the natural key (docs/decisions/0022-derived-ids-uuid-v5.md): an analysis
 *   frame `frame:<product>:<valid>` (`frameId`), a forecast frame
 *   `frame:<product>:<run init>:<valid>`, a run `product-forecast:<product>:<init>`.
 */
import { fieldcastId } from '@fieldcast/ids';
import { forecastBoundaryMs } from '../grid/grid-source.js';
import { DEFAULT_FORECAST_RUNS } from './defaults.js';
import { type RunLifeCycle, runLifeCycle } from './run-life-cycle.js';
import type { ForecastRunSchedule, ModelDef, ProductDef } from './schema.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

const DAY_MS = 86_400_000;
/** The first instant of year 10000: from there on toISOString writes six-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** `YYYY-MM-DDT` by day number since the epoch; days in use are few (a page spans days), so the map is cleared when full. */
const dayPrefixes = new Map<number, string>();
const DAY_PREFIXES_MAX = 4096;

/**
 * ISO 8601 as ids and records write it: to the second when whole, else to the millisecond.
 * Exactly what `toISOString` gives less a `.000`, written from a cached date and the time of
 * day: frame lists write one or more per frame, and `toISOString` was most of a page's cost.
 */
export function isoInstant(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString().replace('.000Z', 'Z');
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= DAY_PREFIXES_MAX) dayPrefixes.clear();
    dayPrefixes.set(day, (prefix = new Date(day * DAY_MS).toISOString().slice(0, 11)));
  }
  const inDay = ms - day * DAY_MS;
  const millis = inDay % 1000;
  const seconds = (inDay - millis) / 1000;
  const time = `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  return millis === 0 ? `${prefix}${time}Z` : `${prefix}${time}.${String(millis).padStart(3, '0')}Z`;
}

/** The run schedule of a product with forecasts, else null. */
export function forecastRunSchedule(p: ProductDef): ForecastRunSchedule | null {
  if (!p.hasForecasts || !p.hasFrames || p.cadenceMinutes === 0) return null;
  return p.forecastRuns ?? DEFAULT_FORECAST_RUNS;
}

/**
 * The model whose runs a product's forecast runs are (docs/decisions/0496-product-runs-are-a-models-runs.md):
 * the first of `models` with the product's source whose cycle is the product's run schedule (run
 * interval, publication delay, retention) and whose horizon reaches the product's, so its run at
 * every init time is the product's run at that time. Null for a product without forecasts, or
 * whose runs no model runs (an override gave it a schedule of its own): its frames are the
 * weather's values, with no run's error.
 */
export function productRunModel(p: ProductDef, models: readonly ModelDef[]): ModelDef | null {
  const s = forecastRunSchedule(p);
  if (!s) return null;
  return (
    models.find(
      (m) =>
        m.source === p.source &&
        m.runEveryHours === s.everyHours &&
        m.publishDelayMinutes === s.publishDelayMinutes &&
        m.retentionHours === s.retentionHours &&
        m.horizonHours >= p.horizonHours,
    ) ?? null
  );
}

/** A forecast run of a product (the platform forecast record of the public record), with its life cycle. */
export interface ProductRun extends RunLifeCycle {
  id: string;
}

/** Run ids by product name and init time: every frame list and run lookup names the live runs. */
const runIds = new Map<string, Map<number, string>>();
/** Enough for every live run of an hourly schedule kept a month; a product's map is cleared when full. */
const RUN_IDS_MAX = 1024;

/** Id of a product's forecast run: UUID v5 of `product-forecast:<product>:<init>`. */
export function productRunId(p: Pick<ProductDef, 'name'>, initMs: number): string {
  let ids = runIds.get(p.name);
  if (!ids) runIds.set(p.name, (ids = new Map()));
  let id = ids.get(initMs);
  if (id === undefined) {
    if (ids.size >= RUN_IDS_MAX) ids.clear();
    ids.set(initMs, (id = fieldcastId(`product-forecast:${p.name}:${isoInstant(initMs)}`)));
  }
  return id;
}

/** Id of a forecast frame: UUID v5 of `frame:<product>:<run init>:<valid>`. */
export function forecastFrameId(p: Pick<ProductDef, 'name'>, initMs: number, validMs: number): string {
  return fieldcastId(`frame:${p.name}:${isoInstant(initMs)}:${isoInstant(validMs)}`);
}

export function productRun(p: ProductDef, initMs: number): ProductRun {
  return { id: productRunId(p, initMs), ...runLifeCycle(initMs, forecastRunSchedule(p) ?? DEFAULT_FORECAST_RUNS) };
}

/** The newest run published by nowMs (init + publish delay <= now), or null for a product without forecasts. */
export function latestProductRun(p: ProductDef, nowMs: number): ProductRun | null {
  const s = forecastRunSchedule(p);
  if (!s) return null;
  const every = s.everyHours * HOUR_MS;
  const initMs = Math.floor((nowMs - s.publishDelayMinutes * MINUTE_MS) / every) * every;
  if (initMs < Date.parse(p.startTime)) return null;
  return productRun(p, initMs);
}

export type SortOrder = 'asc' | 'desc';

/**
 * The published, unexpired runs at nowMs whose init time lies in [startMs, endMs], in `order`
 * of init time, at most `limit`: the runs of `GET /products/{id}/forecasts`.
 */
export function productRuns(
  p: ProductDef,
  nowMs: number,
  startMs = Number.NEGATIVE_INFINITY,
  endMs = Number.POSITIVE_INFINITY,
  limit = 100,
  order: SortOrder = 'desc',
): ProductRun[] {
  const s = forecastRunSchedule(p);
  const latest = latestProductRun(p, nowMs);
  if (!s || !latest) return [];
  const every = s.everyHours * HOUR_MS;
  // unexpired: init + retention > now; and not before the product's start
  const oldest = Math.max(
    Math.floor((nowMs - s.retentionHours * HOUR_MS) / every + 1) * every,
    Math.ceil(Date.parse(p.startTime) / every) * every,
  );
  const lo = Math.max(oldest, Math.ceil(startMs / every) * every);
  const hi = Math.min(latest.initMs, Math.floor(endMs / every) * every);
  const out: ProductRun[] = [];
  if (lo > hi) return out;
  if (order === 'desc') for (let t = hi; t >= lo && out.length < limit; t -= every) out.push(productRun(p, t));
  else for (let t = lo; t <= hi && out.length < limit; t += every) out.push(productRun(p, t));
  return out;
}

/** A run of the product by id, if published and unexpired at nowMs. */
export function findProductRun(p: ProductDef, id: string, nowMs: number): ProductRun | undefined {
  const key = id.toLowerCase();
  return productRuns(p, nowMs, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY).find((r) => r.id === key);
}

/** The first and last valid time of a run (on the product's cadence within [init, init + horizon]), or null. */
export function runValidRange(p: ProductDef, run: Pick<ProductRun, 'initMs'>): { startMs: number; endMs: number } | null {
  const step = p.cadenceMinutes * MINUTE_MS;
  if (step === 0) return null;
  const origin = Date.parse(p.startTime);
  const first = origin + Math.ceil((run.initMs - origin) / step) * step;
  const last = origin + Math.floor((run.initMs + p.horizonHours * HOUR_MS - origin) / step) * step;
  return first <= last ? { startMs: first, endMs: last } : null;
}

/**
 * Where a product's analysis frames end at nowMs: the forecast boundary for a forecast product,
 * its whole range otherwise; floored to the cadence. Null when it has none yet.
 */
export function analysisEndMs(p: ProductDef, nowMs: number, rangeEndMs: number): number | null {
  const startMs = Date.parse(p.startTime);
  const step = p.cadenceMinutes * MINUTE_MS;
  if (!p.hasFrames || step === 0) return null;
  const limit = forecastRunSchedule(p) ? Math.min(forecastBoundaryMs(nowMs), rangeEndMs) : rangeEndMs;
  if (limit < startMs) return null;
  return startMs + Math.floor((limit - startMs) / step) * step;
}

/**
 * When an analysis frame's values are final: at its valid time for an instant; once its period is
 * over for an aggregate; for a daily one once its day is over at every longitude, since a daily
 * value is over the local day and the westernmost (UTC-12) ends last (docs/decisions/0021). Until
 * then its hours after the forecast boundary are forecast values, and a new run redraws them.
 */
export function frameFinalMs(p: ProductDef, validMs: number): number {
  const period = p.aggregationPeriodInMinutes * MINUTE_MS;
  if (period === 0) return validMs;
  return validMs + period + (period >= DAY_MS ? WESTERNMOST_UTC_OFFSET_HOURS * HOUR_MS : 0);
}

/** Local (solar) time runs at most 12 hours behind UTC, at longitude -180. */
const WESTERNMOST_UTC_OFFSET_HOURS = 12;

/** Valid times on a cadence grid (origin + k step) within [lo, hi], in `order`, at most `limit`. */
export function cadenceTimes(originMs: number, stepMs: number, lo: number, hi: number, limit: number, order: SortOrder): number[] {
  const out: number[] = [];
  if (stepMs <= 0 || lo > hi || limit <= 0) return out;
  const first = originMs + Math.ceil((lo - originMs) / stepMs) * stepMs;
  const last = originMs + Math.floor((hi - originMs) / stepMs) * stepMs;
  if (order === 'asc') for (let t = first; t <= last && out.length < limit; t += stepMs) out.push(t);
  else for (let t = last; t >= first && out.length < limit; t -= stepMs) out.push(t);
  return out;
}
