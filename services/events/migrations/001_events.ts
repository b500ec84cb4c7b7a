import type { Migration } from '@fieldcast/db';

export const eventsMigration: Migration = {
  name: '001_events',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('events', (t) => {
      t.uuid('id').primary();
      /** ingestion order: the feed's tie-break, so one resource's events keep their delivery order */
      t.specificType('seq', 'bigserial').notNullable().unique();
      /** CloudEvent id of a consumed message: a redelivery hits this constraint and is dropped */
      t.text('source_event_id').unique();
      t.text('app').notNullable();
      t.text('origin_namespace').notNullable();
      t.uuid('origin_id').notNullable();
      t.text('namespace').notNullable();
      t.text('status').notNullable();
      t.text('message').notNullable();
      t.timestamp('creation_time', { useTz: true }).notNullable();
      t.timestamp('occurrence_time', { useTz: true }).notNullable();
      t.timestamp('expiration_time', { useTz: true });
      t.jsonb('tagged').notNullable();
      /** account whose resource or application the event is about; null = public */
      t.uuid('owner_account');
    });
    // Feed order is occurrenceTime descending with ingestion order as tie-break (docs/architecture.md §5).
    await knex.raw('create index events_feed on ??.events (occurrence_time desc, seq desc)', [schema]);
    await knex.raw('create index events_owner_feed on ??.events (owner_account, occurrence_time desc, seq desc)', [schema]);
    await knex.schema.withSchema(schema).createTable('dead_letters', (t) => {
      t.bigIncrements('id').primary();
      t.text('topic').notNullable();
      t.integer('partition').notNullable();
      t.text('offset').notNullable();
      t.text('key');
      t.text('value').notNullable();
      t.text('reason').notNullable();
      t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['topic', 'partition', 'offset']);
    });
  },
};
