import type { Migration } from '@fieldcast/db';

/**
 * The secret a rotation replaced, and until when deliveries are signed with it as well
 * (docs/decisions/0360-webhook-secret-rotation.md): a receiver switches to the new secret on its
 * own time, without a delivery that verifies with neither.
 */
export const secretRotationMigration: Migration = {
  name: '006_secret_rotation',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('subscriptions', (t) => {
      t.text('previous_secret');
      t.timestamp('previous_secret_expires_at', { useTz: true });
    });
  },
};
