import type { Knex } from 'knex';

export interface Migration {
  /** sortable, unique within the schema, e.g. "001_fields" */
  name: string;
  up(knex: Knex, schema: string): Promise<void>;
}

/**
 * Runs a schema's migrations through knex's migrator, with the migration table inside the
 * schema itself so services never touch each other's bookkeeping (docs/architecture.md §4).
 *
 * On PostgreSQL, replicas starting at once take turns: knex's own lock makes a second migrator
 * fail (MigrationLocked) rather than wait, and a process killed while migrating leaves that lock
 * set for good. So each migrator first holds a session advisory lock named after the schema,
 * which PostgreSQL releases when its connection ends, however the process ended; holding it,
 * knex's lock can only be a dead migrator's and is freed. PGlite serves one process.
 */
export async function migrateSchema(knex: Knex, schema: string, migrations: Migration[]): Promise<void> {
  if ((knex.client.config as { client?: unknown }).client !== 'pg') return runMigrations(knex, schema, migrations);
  const connection = (await knex.client.acquireConnection()) as { query(text: string, values: unknown[]): Promise<unknown> };
  const key = `fieldcast migrations ${schema}`;
  try {
    await connection.query('select pg_advisory_lock(hashtext($1))', [key]);
    try {
      await runMigrations(knex, schema, migrations, { freeStaleLock: true });
    } finally {
      await connection.query('select pg_advisory_unlock(hashtext($1))', [key]);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

async function runMigrations(
  knex: Knex,
  schema: string,
  migrations: Migration[],
  options: { freeStaleLock?: boolean } = {},
): Promise<void> {
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
  const config = { migrationSource: source, schemaName: schema, tableName: 'knex_migrations' };
  if (options.freeStaleLock) await knex.migrate.forceFreeMigrationsLock(config);
  await knex.migrate.latest(config);
}
