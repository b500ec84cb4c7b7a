import type { Migration } from '@fieldcast/db';

/**
 * The clock hours whose timed pass a replica has claimed (docs/decisions/0357-hourly-alert-pass-once.md):
 * the first replica to insert an hour runs that hour's pass, the others find it and skip theirs.
 */
export const hourlyPassesMigration: Migration = {
  name: '002_hourly_passes',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('hourly_passes', (t) => {
      /** hours since 1970-01-01T00:00Z */
      t.bigInteger('hour').primary();
      t.timestamp('claimed_at', { useTz: true }).notNullable();
    });
  },
};
