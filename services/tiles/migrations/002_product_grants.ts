import type { Migration } from '@fieldcast/db';

/**
 * Which accounts the platform area has granted which restricted products: the tiles area's own
 * copy, filled from the platform's messages (docs/architecture.md §4;
 * docs/decisions/0134-product-grants-published-to-the-tiles-area.md). A row is a grant; a
 * revocation deletes it.
 */
export const productGrantsMigration: Migration = {
  name: '002_product_grants',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('product_grants', (t) => {
      t.uuid('account_id').notNullable();
      t.uuid('product_id').notNullable();
      t.primary(['account_id', 'product_id']);
    });
  },
};
