import type { Migration } from '@fieldcast/db';

/**
 * An account's version: raised by every publish in the publish's transaction, so a list page kept
 * by any replica can be checked with one primary-key read (docs/decisions/0154-observation-list-cache.md).
 * An account without a row has published nothing since this table came: version 0.
 */
export const accountVersionsMigration: Migration = {
  name: '002_account_versions',
  async up(knex, schema) {
    await knex.raw(`create table "${schema}".account_versions (
      account_id uuid primary key,
      version bigint not null
    )`);
  },
};
