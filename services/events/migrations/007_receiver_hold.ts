import type { Migration } from '@fieldcast/db';

/**
 * Until when no request goes to a subscription's URL: a receiver's Retry-After holds every
 * delivery to it, not only the one it answered (HTTP 1.1 Web Hooks for Event Delivery 2.2;
 * docs/decisions/0375-retry-after-holds-the-url.md).
 */
export const receiverHoldMigration: Migration = {
  name: '007_receiver_hold',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('subscriptions', (t) => {
      t.timestamp('held_until', { useTz: true });
    });
  },
};
