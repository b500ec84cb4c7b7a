import type { Migration } from '@fieldcast/db';

/**
 * The area's copy of the storm reports ingested into the archive, kept from the archive's
 * announcements (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md): never read
 * from the archive's tables. Only added.
 */
export const stormReportsMigration: Migration = {
  name: '005_storm_reports',
  async up(knex, schema) {
    /** Each type and convective day announced, with the revision its reports are of: a lower one changes nothing. */
    await knex.schema.withSchema(schema).createTable('storm_report_days', (t) => {
      /** hail, wind or tornado: the file's type */
      t.text('report_type').notNullable();
      /** the convective day (12Z to 12Z), YYYY-MM-DD */
      t.text('day').notNullable();
      t.integer('revision').notNullable();
      t.primary(['report_type', 'day']);
    });
    /** The reports of the revisions kept, replaced with their day; severe-weather rules read them by time and place. */
    await knex.schema.withSchema(schema).createTable('storm_reports', (t) => {
      /** the archive's id of the report */
      t.uuid('id').primary();
      t.text('report_type').notNullable();
      t.text('day').notNullable();
      t.timestamp('time', { useTz: true }).notNullable();
      t.double('latitude').notNullable();
      t.double('longitude').notNullable();
      /** mm, m s-1 or EF by report_type; null where the report gave none */
      t.double('magnitude');
      t.index(['report_type', 'day']);
      t.index(['time']);
    });
  },
};
