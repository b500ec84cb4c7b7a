import type { Migration } from '@fieldcast/db';

/**
 * The registry of synced runs in the database (docs/decisions/0310-synced-registry-in-the-database.md):
 * one row per step stored (its frames are derived: packages/sync syncedStepFrames) and one per
 * status a run entered. The primary keys make registration
 * insert-if-absent, so a step or a transition is registered, and its event written, once whoever
 * registers it and however often.
 */
export const syncedRegistryMigration: Migration = {
  name: '002_synced_registry',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('synced_steps', (t) => {
      t.text('source').notNullable();
      t.timestamp('run', { useTz: true }).notNullable();
      /** hours after the run's start */
      t.integer('step').notNullable();
      t.timestamp('registered_at', { useTz: true }).notNullable();
      t.primary(['source', 'run', 'step']);
    });
    await knex.schema.withSchema(schema).createTable('synced_run_statuses', (t) => {
      t.text('source').notNullable();
      t.timestamp('run', { useTz: true }).notNullable();
      /** INITIALIZING, INCOMPLETE, COMPLETE or EXPIRED */
      t.text('status').notNullable();
      t.timestamp('registered_at', { useTz: true }).notNullable();
      t.primary(['source', 'run', 'status']);
    });
  },
};
