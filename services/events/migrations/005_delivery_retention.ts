import type { Migration } from '@fieldcast/db';

/**
 * Deliveries that ended (delivered, or dead letters) by when they ended: the retention task
 * (docs/decisions/0260-webhook-delivery.md, retention) deletes the oldest through this index
 * without reading the pending ones or any subscription's list.
 */
export const deliveryRetentionMigration: Migration = {
  name: '005_delivery_retention',
  async up(knex, schema) {
    await knex.raw(
      "create index deliveries_ended on ??.deliveries ((coalesce(delivered_at, dead_at))) where status in ('delivered', 'dead')",
      [schema],
    );
  },
};
