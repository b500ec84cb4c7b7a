import type { Migration } from '@fieldcast/db';

/**
 * The platform schema: which accounts may see which restricted products
 * (docs/decisions/0121-product-access.md), and how far the tile-building application has
 * announced each product's frames and forecast runs (docs/decisions/0122-frame-and-run-events.md).
 * Frames and runs themselves are derived, never stored.
 */
export const platformMigration: Migration = {
  name: '001_platform',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('product_grants', (t) => {
      t.uuid('account_id').notNullable();
      t.uuid('product_id').notNullable();
      /** the product's name when granted, for operators reading the table */
      t.text('product_name').notNullable();
      t.timestamp('granted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['account_id', 'product_id']);
    });
    await knex.schema.withSchema(schema).createTable('announcements', (t) => {
      t.uuid('product_id').primary();
      /** valid time of the newest frame announced */
      t.timestamp('frames_through', { useTz: true });
      /** time of the newest forecast-run transition announced */
      t.timestamp('runs_through', { useTz: true });
      /** when a pass last looked at the product */
      t.timestamp('checked_at', { useTz: true });
    });
  },
};
