import type { Migration } from '@fieldcast/db';

/**
 * Until when a replica is asking a receiver for its rate (docs/decisions/0423-a-rate-never-read-is-asked-for.md):
 * no replica's claim takes the receiver's deliveries before the answer is recorded, or the lease
 * of a replica that died asking ends (docs/decisions/0495-a-receiver-asked-for-its-rate-is-held-in-the-database.md).
 * Null: none is asking. Apart from `rate_asked_until`, which after an ask that read no rate says
 * when the next may be made, while the deliveries go on. Only added
 * (docs/decisions/0419-migrations-keep-the-previous-release-working.md).
 */
export const rateAskLeasesMigration: Migration = {
  name: '014_rate_ask_leases',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('receivers', (t) => {
      t.timestamp('rate_ask_lease_until', { useTz: true });
    });
  },
};
