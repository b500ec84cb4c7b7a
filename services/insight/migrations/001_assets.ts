import type { Migration } from '@fieldcast/db';

export const assetsMigration: Migration = {
  name: '001_assets',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('assets', (t) => {
      t.uuid('id').primary();
      t.uuid('account_id').notNullable();
      /** the Feature's properties: the tag map served as `description` (spec 2.2) */
      t.jsonb('tags').notNullable();
      /** the Polygon's rings as submitted; served as a MultiPolygon (spec 2.2) */
      t.jsonb('polygon').notNullable();
      t.double('centroid_lat').notNullable();
      t.double('centroid_lon').notNullable();
      t.double('area_m2').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['account_id', 'created_at', 'id']);
    });
  },
};
