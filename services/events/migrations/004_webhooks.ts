import type { Migration } from '@fieldcast/db';

/**
 * Webhook subscriptions and their deliveries (docs/decisions/0260-webhook-delivery.md). Delivery
 * state lives here, not in a process: any replica claims a due delivery with a lease, so a replica
 * that dies mid-send leaves a row another takes up when the lease ends.
 */
export const webhooksMigration: Migration = {
  name: '004_webhooks',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('subscriptions', (t) => {
      t.uuid('id').primary();
      t.uuid('account_id').notNullable();
      t.text('url').notNullable();
      t.jsonb('filter').notNullable();
      t.text('description').notNullable();
      /** the Standard Webhooks secret, `whsec_` and base64; shown once, at creation */
      t.text('secret').notNullable();
      t.text('status').notNullable();
      t.text('status_message');
      /** dead letters since the last delivery: at the threshold the subscription is paused */
      t.integer('dead_in_a_row').notNullable().defaultTo(0);
      /** a replica validating the URL holds this until its handshake ends */
      t.timestamp('lease_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.raw('create index subscriptions_account on ??.subscriptions (account_id, created_at, id)', [schema]);
    await knex.raw("create index subscriptions_open on ??.subscriptions (account_id) where status in ('validating', 'active')", [schema]);

    await knex.schema.withSchema(schema).createTable('deliveries', (t) => {
      t.uuid('id').primary();
      /** fan-out order: one resource's deliveries to one subscription go in this order */
      t.specificType('seq', 'bigserial').notNullable().unique();
      t.uuid('subscription_id').notNullable().references('id').inTable(`${schema}.subscriptions`).onDelete('CASCADE');
      t.uuid('event_id').notNullable();
      /** the resource the event is about (its origin): deliveries of one key go one at a time, in seq order */
      t.uuid('order_key').notNullable();
      t.text('type').notNullable();
      /** the CloudEvent as sent, fixed at fan-out so every attempt sends the same bytes */
      t.text('body').notNullable();
      t.text('status').notNullable();
      t.integer('attempt_count').notNullable().defaultTo(0);
      t.jsonb('attempts').notNullable().defaultTo('[]');
      t.timestamp('first_attempt_at', { useTz: true });
      t.timestamp('next_attempt_at', { useTz: true });
      t.timestamp('lease_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('delivered_at', { useTz: true });
      t.timestamp('dead_at', { useTz: true });
      t.unique(['subscription_id', 'event_id']);
    });
    await knex.raw("create index deliveries_due on ??.deliveries (next_attempt_at) where status = 'pending'", [schema]);
    await knex.raw("create index deliveries_queue on ??.deliveries (subscription_id, order_key, seq) where status = 'pending'", [schema]);
    await knex.raw('create index deliveries_list on ??.deliveries (subscription_id, seq desc)', [schema]);
  },
};
