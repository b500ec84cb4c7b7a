import type { Migration } from '@fieldcast/db';

/**
 * How far the public events of forecast runs have been written, per model
 * (docs/decisions/0142-forecast-events-from-the-clock.md): runs are derived from the clock, so
 * this one row per model is all the area stores besides its outbox.
 */
export const forecastEventClockMigration: Migration = {
  name: '001_forecast_event_clock',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('forecast_event_clock', (t) => {
      t.uuid('model_id').primary();
      /** every life-cycle step at or before this instant has its event in the outbox */
      t.timestamp('emitted_through', { useTz: true }).notNullable();
    });
  },
};
