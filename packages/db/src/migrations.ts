import type { Knex } from 'knex';

export interface Migration {
  /** sortable, unique within the schema, e.g. "001_fields" */
  name: string;
  up(knex: Knex, schema: string): Promise<void>;
}

/**
 * Runs a schema's migrations through knex's migrator, with the migration table inside the
 * schema itself so services never touch each other's bookkeeping (docs/architecture.md §4).
 * knex's lock table makes concurrent replicas wait for one another.
 */
export async function migrateSchema(knex: Knex, schema: string, migrations: Migration[]): Promise<void> {
  await knex.raw('create schema if not exists ??', [schema]);
  const byName = new Map(migrations.map((m) => [m.name, m]));
  const source: Knex.MigrationSource<Migration> = {
    getMigrations: async () => [...migrations].sort((a, b) => a.name.localeCompare(b.name)),
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({
      up: (k: Knex) => byName.get(m.name)!.up(k, schema),
      down: async () => {
        throw new Error('down migrations are not supported; write a new forward migration');
      },
    }),
  };
  await knex.migrate.latest({ migrationSource: source, schemaName: schema, tableName: 'knex_migrations' });
}
