import type { Migration } from '@fieldcast/db';

export const stylesMigration: Migration = {
  name: '001_styles',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('styles', (t) => {
      t.uuid('id').primary();
      t.uuid('account_id').notNullable();
      t.uuid('product_id').notNullable();
      t.text('name').notNullable();
      /** the name as compared: names are unique among all accounts, case-insensitively (spec 4.3) */
      t.text('name_key').notNullable().unique();
      t.text('description').notNullable();
      t.text('layer_name').notNullable();
      /** the colorizers as submitted (spec 2.3) */
      t.jsonb('colorizers').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['account_id', 'created_at', 'id']);
      t.index(['account_id', 'product_id', 'created_at', 'id']);
    });
  },
};
