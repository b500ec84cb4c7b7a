import type { Migration } from '@fieldcast/db';
import { styleInSpecOrder } from '@fieldcast/schemas';

/** Rows given their kept text at a time: bounded memory whatever the table holds. */
const BATCH = 500;

/** A stored style's text as every answer gives it (a contributed style: isDefault false). */
function viewOf(row: Record<string, unknown>): string {
  const colorizers = typeof row.colorizers === 'string' ? JSON.parse(row.colorizers) : row.colorizers;
  return JSON.stringify(
    styleInSpecOrder({
      id: row.id as string,
      name: row.name as string,
      description: row.description as string,
      layerName: row.layer_name as string,
      colorizers,
      isDefault: false,
      productId: row.product_id as string,
    }),
  );
}

/**
 * Each style keeps the JSON text every answer gives of it, written with the style, so the list
 * joins stored texts in the database (docs/decisions/0133-tile-caches.md) and gives the same bytes
 * as a read (docs/decisions/0417-one-representation-of-a-style.md). The styles already held get
 * theirs here.
 */
export const styleViewsMigration: Migration = {
  name: '004_style_views',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('styles', (t) => {
      t.text('view');
    });
    const styles = () => knex.withSchema(schema).table('styles');
    for (;;) {
      const rows: Record<string, unknown>[] = await styles()
        .select('id', 'product_id', 'name', 'description', 'layer_name', 'colorizers')
        .whereNull('view')
        .orderBy('id')
        .limit(BATCH);
      if (rows.length === 0) break;
      for (const row of rows) {
        await styles()
          .where({ id: row.id })
          .update({ view: viewOf(row) });
      }
    }
    await knex.schema.withSchema(schema).alterTable('styles', (t) => {
      t.text('view').notNullable().alter();
    });
  },
};
