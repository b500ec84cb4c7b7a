import type { Knex } from 'knex';
import type { Outbox, OutboxWriter } from '@fieldcast/db';
import { fieldcastId } from '@fieldcast/ids';
import type { ModelDef } from '@fieldcast/weather';
import { FORECAST_EVENTS, type ForecastTransition, transitionsBetween } from './domain/forecast-events.js';

export const AREA = 'model';
/** fieldcast.<area>.<resource> (docs/architecture.md §5) */
export const FORECASTS_TOPIC = `fieldcast.${AREA}.forecasts`;
const MODEL_NAMESPACE = 'model/models';
const CLOCK = 'forecast_event_clock';

/**
 * The public event of one life-cycle step of a run, synthetic or synced: tagged with the run and
 * its model, its message naming both (docs/decisions/0142-forecast-events-from-the-clock.md).
 */
export function forecastEvent(step: ForecastTransition): Parameters<OutboxWriter['add']>[2] {
  const { action, message } = FORECAST_EVENTS[step.status];
  return {
    // The same step gets the same id everywhere, so a consumer stores it once (docs/decisions/0022-derived-ids-uuid-v5.md).
    id: fieldcastId('forecast-event', step.forecast.id, step.status),
    area: AREA,
    resource: 'forecast',
    action,
    subject: step.forecast.id,
    time: new Date(step.atMs),
    data: {
      account: null,
      resource: step.forecast,
      related: [{ namespace: MODEL_NAMESPACE, id: step.model.id }],
      // The events area's namespace stays model/forecasts/<action>; the message names the run and the model.
      event: { message },
    },
  };
}

/**
 * After a pause longer than this, the steps before it are not written: events tell what is
 * happening, and a day's backlog is the most a reader of the feed still wants
 * (docs/decisions/0142-forecast-events-from-the-clock.md).
 */
export const EVENT_CATCH_UP_MS = 24 * 3_600_000;

/**
 * Writes the public events of forecast runs (docs/architecture.md §5) from the clock. Runs are
 * not stored, so each model keeps one row: the instant through which its steps are in the
 * outbox. A pass locks the row, writes every step after it up to now with the outbox, and moves
 * the row to the last step written, all in one transaction, so replicas and restarts write each
 * event once. A model seen for the first time starts at now: no history is replayed.
 */
export class ForecastEventWriter {
  constructor(
    private readonly knex: Knex,
    private readonly outbox: Outbox,
    private readonly models: () => readonly ModelDef[],
  ) {}

  /** Writes the steps up to nowMs that are not written yet; returns how many. */
  async writeThrough(nowMs: number): Promise<number> {
    return this.knex.transaction(async (trx) => {
      let written = 0;
      for (const model of this.models()) {
        const clock = () => trx.withSchema(AREA).table(CLOCK);
        await clock()
          .insert({ model_id: model.id, emitted_through: new Date(nowMs) })
          .onConflict('model_id')
          .ignore();
        const row = (await clock().where({ model_id: model.id }).forUpdate().first()) as { emitted_through: Date | string };
        const throughMs = new Date(row.emitted_through).getTime();
        const steps = transitionsBetween([model], Math.max(throughMs, nowMs - EVENT_CATCH_UP_MS), nowMs);
        for (const step of steps) await this.outbox.add(trx, FORECASTS_TOPIC, forecastEvent(step));
        const last = steps[steps.length - 1];
        if (last)
          await clock()
            .where({ model_id: model.id })
            .update({ emitted_through: new Date(last.atMs) });
        written += steps.length;
      }
      return written;
    });
  }
}
