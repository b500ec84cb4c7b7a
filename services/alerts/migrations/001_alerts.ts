import type { Migration } from '@fieldcast/db';

export const alertsMigration: Migration = {
  name: '001_alerts',
  async up(knex, schema) {
    /**
     * The area's copy of the fields and assets rules may watch, kept from their events
     * (docs/decisions/0270-alerts-area.md): never read from the other areas' tables. A deleted
     * one stays as a tombstone, so an older event delivered again cannot bring it back.
     */
    await knex.schema.withSchema(schema).createTable('targets', (t) => {
      t.uuid('id').primary();
      /** field or asset */
      t.text('type').notNullable();
      t.uuid('account_id').notNullable();
      t.double('latitude').notNullable();
      t.double('longitude').notNullable();
      t.boolean('deleted').notNullable();
      /** the time of the last event applied (CloudEvent time) */
      t.timestamp('event_time', { useTz: true }).notNullable();
    });
    await knex.schema.withSchema(schema).createTable('rules', (t) => {
      t.uuid('id').primary();
      t.uuid('account_id').notNullable();
      t.text('description').notNullable();
      t.text('target_type').notNullable();
      t.uuid('target_id').notNullable();
      /** the condition's kind and parameters as the caller gave them (docs/interface.md, alerts) */
      t.jsonb('condition').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['account_id', 'created_at', 'id']);
      t.index(['target_id']);
    });
    /**
     * Whether each rule holds, as last decided: one row per rule, changed in the transaction that
     * writes its triggered or cleared event to the outbox (docs/decisions/0271-alert-evaluation.md).
     */
    await knex.schema.withSchema(schema).createTable('rule_states', (t) => {
      t.uuid('rule_id').primary().references('id').inTable(`${schema}.rules`).onDelete('CASCADE');
      t.boolean('holding').notNullable();
      t.double('value');
      /** how many times it changed: numbers the events, whose ids derive from it */
      t.integer('transitions').notNullable();
      /** the clock reading of the evaluation that last decided it; an older one changes nothing */
      t.timestamp('evaluated_at', { useTz: true }).notNullable();
      t.timestamp('changed_at', { useTz: true });
    });
  },
};
