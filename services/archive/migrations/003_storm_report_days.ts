import type { Migration } from '@fieldcast/db';

/**
 * How many times each type and convective day was ingested
 * (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md): the revision each
 * ingestion's announcement carries, so an area keeping a copy tells a newer announcement from an
 * older one delivered again, whatever the clocks of the processes that ingested them.
 */
export const stormReportDaysMigration: Migration = {
  name: '003_storm_report_days',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('storm_report_days', (t) => {
      /** hail, wind or tornado */
      t.text('report_type').notNullable();
      /** the convective day (12Z to 12Z), YYYY-MM-DD */
      t.text('day').notNullable();
      /** 1 for the day's first ingestion, one more for each after it */
      t.integer('revision').notNullable();
      t.primary(['report_type', 'day']);
    });
  },
};
