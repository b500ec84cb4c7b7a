import type { Migration } from '@fieldcast/db';

export const fieldsMigration: Migration = {
  name: '001_fields',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('fields', (t) => {
      t.uuid('id').primary();
      t.uuid('account_id').notNullable();
      t.text('description').notNullable();
      /** polygon coordinate arrays as submitted; served as MultiPolygons (spec 2.1) */
      t.jsonb('polygons').notNullable();
      t.double('centroid_lat').notNullable();
      t.double('centroid_lon').notNullable();
      t.double('area_m2').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['account_id', 'created_at', 'id']);
    });
  },
};
