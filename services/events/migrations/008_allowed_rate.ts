import type { Migration } from '@fieldcast/db';

/**
 * The rate a subscription's receiver allows, in requests per minute, from its handshake answer's
 * WebHook-Allowed-Rate (HTTP 1.1 Web Hooks for Event Delivery 4.2.2); null: no limit. Requests are
 * paced through the receiver's hold, `held_until` (docs/decisions/0396-receivers-allowed-rate.md).
 */
export const allowedRateMigration: Migration = {
  name: '008_allowed_rate',
  async up(knex, schema) {
    await knex.raw('alter table ??.subscriptions add column allowed_rate integer check (allowed_rate > 0)', [schema]);
  },
};
