import type { Migration } from '@fieldcast/db';

/**
 * Ingested storm reports (docs/decisions/0174-ingested-storm-reports.md): the rows of SPC report
 * files, in the units of the archive's records. A file replaces the reports of its type and
 * convective day, so `day` and `report_type` are indexed together; requests read by time and place.
 */
export const stormReportsMigration: Migration = {
  name: '002_storm_reports',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('storm_reports', (t) => {
      /** UUID v5 of the report's natural key */
      t.uuid('id').primary();
      /** hail, wind or tornado */
      t.text('report_type').notNullable();
      /** the convective day (12Z to 12Z) of the file it came from, YYYY-MM-DD */
      t.text('day').notNullable();
      t.timestamp('time', { useTz: true }).notNullable();
      t.double('latitude').notNullable();
      t.double('longitude').notNullable();
      /** mm, m s-1 or EF; null where the report gave none (UNK) */
      t.double('magnitude');
      t.text('unit').notNullable();
      t.text('place').notNullable();
      t.text('remarks').notNullable();
      t.timestamp('ingested_at', { useTz: true }).notNullable();
      t.index(['report_type', 'day']);
      t.index(['time']);
    });
  },
};
