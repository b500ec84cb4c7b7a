/**
 * The public events of forecast runs (docs/interface.md §7; docs/architecture.md §5): each step of
 * a run's life cycle (runs.ts) is one event, FORECAST_INITIALIZING, FORECAST_INCOMPLETE,
 * FORECAST_COMPLETED and FORECAST_EXPIRED in the public record's names, CloudEvent types
 * `fieldcast.forecast.initializing` ... `fieldcast.forecast.expired`
 * (docs/decisions/0142-forecast-events-from-the-clock.md).
 */
import type { ModelForecastRecord, ModelForecastStatus } from '@fieldcast/schemas';
import { CATALOG_START, type ModelDef, RUN_TRANSITIONS } from '@fieldcast/weather';
import { forecastRecord } from './records.js';
import { runAt } from './runs.js';

const HOUR_MS = 3_600_000;
const FIRST_INIT_MS = Date.parse(CATALOG_START);

/**
 * The CloudEvent action of each status (FORECAST_INITIALIZING is `initializing`, and so on), and
 * the message the events area shows, one `{}` for the run and one for its model
 * (docs/decisions/0123-events-described-by-their-emitter.md).
 */
export const FORECAST_EVENTS: Readonly<Record<ModelForecastStatus, { action: string; message: string }>> = {
  INITIALIZING: { action: 'initializing', message: 'Forecast {} of model {} is initializing' },
  INCOMPLETE: { action: 'incomplete', message: 'Forecast {} of model {} is producing its valid times' },
  COMPLETE: { action: 'completed', message: 'Forecast {} of model {} is complete' },
  EXPIRED: { action: 'expired', message: 'Forecast {} of model {} expired' },
};

export interface ForecastTransition {
  /** when the run entered the status, epoch ms */
  atMs: number;
  status: ModelForecastStatus;
  model: ModelDef;
  /** the run's record as of the transition */
  forecast: ModelForecastRecord;
}

/**
 * Every life-cycle step of every run of the models that falls in (fromMs, toMs], in time order
 * (steps at the same instant in life-cycle order).
 */
export function transitionsBetween(models: readonly ModelDef[], fromMs: number, toMs: number): ForecastTransition[] {
  const out: ForecastTransition[] = [];
  if (!(toMs > fromMs)) return out;
  for (const m of models) {
    const every = m.runEveryHours * HOUR_MS;
    // A run's last step, EXPIRED, comes retentionHours after its init time.
    const oldestInit = fromMs - m.retentionHours * HOUR_MS;
    for (let t = Math.floor(toMs / every) * every; t > oldestInit - every && t >= FIRST_INIT_MS; t -= every) {
      const run = runAt(m, t);
      for (const { status, at } of RUN_TRANSITIONS) {
        const atMs = at(run);
        if (atMs > fromMs && atMs <= toMs) out.push({ atMs, status, model: m, forecast: { ...forecastRecord(run, atMs), status } });
      }
    }
  }
  const order = (s: ModelForecastStatus) => RUN_TRANSITIONS.findIndex((x) => x.status === s);
  return out.sort((a, b) => a.atMs - b.atMs || order(a.status) - order(b.status) || a.forecast.id.localeCompare(b.forecast.id));
}
