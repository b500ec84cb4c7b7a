import type { Migration } from '@fieldcast/db';

/**
 * The account whose delivery a paced receiver was last claimed for: the next claim serves the next
 * account with a delivery due, so accounts sharing a URL take turns at its allowed rate
 * (docs/decisions/0443-accounts-take-turns-at-a-paced-receiver.md). Null: none yet, the first
 * account in order goes first. Only added (docs/decisions/0419-migrations-keep-the-previous-release-working.md).
 */
export const receiverTurnsMigration: Migration = {
  name: '011_receiver_turns',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('receivers', (t) => {
      t.uuid('last_account_id');
    });
  },
};
