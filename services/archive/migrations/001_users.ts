import type { Migration } from '@fieldcast/db';

/** Archive users (docs/interface.md §11): a token's hash, and the address ranges and types it may use. */
export const usersMigration: Migration = {
  name: '001_users',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('users', (t) => {
      t.text('name').primary();
      /** SHA-256 of the token, hex; the token itself is shown once and never stored */
      t.text('token_hash').notNullable();
      /** CIDR ranges, normalised, e.g. ["127.0.0.1/32", "::1/128"] */
      t.jsonb('ranges').notNullable();
      /** archive types the user may read, e.g. ["hailsize", "lightning"] */
      t.jsonb('types').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
};
