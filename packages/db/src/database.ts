import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';

export type DatabaseConfig = { url: string } | { dataDir: string | null };

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly knex: Knex;
  /** a dedicated connection that LISTENs (PostgreSQL only; PGlite runs in one process) */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

// PostgreSQL returns bigint (int8) as a string by default; our counts and sequences fit a double.
pg.types.setTypeParser(20, (v) => Number(v));

/** One knex per process: PostgreSQL through pg, or one embedded PGlite (DESIGN.md section 2). */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if ('url' in config) return openPostgres(config.url);
  return openPglite(config.dataDir);
}

function openPostgres(url: string): Database {
  const knex = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 10 } });
  return {
    kind: 'postgres',
    knex,
    async listen(channel, onNotify) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      client.on('notification', onNotify);
      // A dropped LISTEN connection must not crash the process; the relay's slow safety poll
      // covers the gap.
      client.on('error', () => undefined);
      await client.query(`LISTEN "${channel}"`);
      return async () => {
        await client.end().catch(() => undefined);
      };
    },
    ping: () => ping(knex),
    close: () => knex.destroy(),
  };
}

async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir ?? undefined);
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof Knex.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }) as object,
  } as Knex.Config);
  return {
    kind: 'pglite',
    knex,
    async listen() {
      return async () => undefined;
    },
    ping: () => ping(knex),
    async close() {
      await knex.destroy(); // knex-pglite closes the instance it was given
      if (!pglite.closed) await pglite.close();
    },
  };
}

async function ping(knex: Knex): Promise<boolean> {
  try {
    await knex.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
