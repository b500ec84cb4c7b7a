import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { StatementPipeline, type PreparedStatement } from './statement-pipeline.js';

export type { PreparedStatement } from './statement-pipeline.js';

/**
 * PostgreSQL at a URL, or PGlite in a data dir (in memory for null), optionally started from a
 * data dir dumped by `dumpDatabase` (tests copy one migrated database instead of migrating each).
 */
export type DatabaseConfig = { url: string } | EmbeddedConfig;
interface EmbeddedConfig {
  dataDir: string | null;
  from?: Blob;
  /** PostgreSQL's shared_buffers in MB; its default (128) where unset */
  sharedBuffersMb?: number;
  /**
   * made to be dumped (`dumpDatabase`) and copied by many: its write-ahead log in 1 MB segments
   * (initdb --wal-segsize) with none kept in reserve, where PostgreSQL's defaults keep 16 MB
   * segments, mostly zeros, that every copy would unpack
   */
  template?: boolean;
}

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly knex: Knex;
  /** a dedicated connection that LISTENs (PostgreSQL only; PGlite runs in one process) */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * One short read with `$n` parameters; resolves to its rows. On PostgreSQL it is a named
   * prepared statement on one of a few pipelined connections (statement-pipeline.ts): parsed
   * once per connection, then only bound and executed, which saves most of the server's work for
   * a small indexed read. A name must always carry the same text. After five runs PostgreSQL may
   * switch to a generic plan (one for any parameter values), so a caller checks that plan too.
   * Not for slow statements: one delays the others behind it. PGlite runs the same text unnamed
   * on knex's connection, so it still waits for an open transaction.
   */
  prepared<T = Record<string, unknown>>(statement: PreparedStatement): Promise<T[]>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A connection of knex's pool as the driver made it (pg.Client, or the one PGlite instance), so a
 * PGlite statement still waits for a transaction that holds the only connection.
 */
async function withConnection<C, T>(knex: Knex, use: (connection: C) => Promise<T>): Promise<T> {
  const connection = (await knex.client.acquireConnection()) as C;
  try {
    return await use(connection);
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

// PostgreSQL returns bigint (int8) as a string by default; our counts and sequences fit a double.
pg.types.setTypeParser(20, (v) => Number(v));

/** One knex per process: PostgreSQL through pg, or one embedded PGlite (docs/architecture.md §2). */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if ('url' in config) return openPostgres(config.url);
  return openPglite(config);
}

/**
 * A PGlite database's data dir as an uncompressed tarball, for `openDatabase({ dataDir, from })`:
 * the database PGlite serves (`postgres`) alone, initdb's template databases dropped (nothing
 * creates a database in an embedded one), after a checkpoint, so a copy unpacks as few bytes as
 * the data needs (with `template`, its log too). Made to be closed after.
 */
export async function dumpDatabase(db: Database): Promise<Blob> {
  if (db.kind !== 'pglite') throw new Error('only an embedded (PGlite) database can be dumped');
  return withConnection(db.knex, async (connection: PGlite) => {
    for (const name of ['template0', 'template1']) {
      // a template database is dropped only once it is no longer marked one (DROP DATABASE)
      await connection.query(`update pg_database set datistemplate = false where datname = $1`, [name]);
      await connection.query(`drop database if exists ${name}`);
    }
    await connection.query('checkpoint');
    return connection.dumpDataDir('none');
  });
}

/**
 * knex's own messages, which it writes with console.log, on stderr, where a process's standard
 * output is the command's own (a `--json` answer, say). A connection that cannot be made is not
 * told here: the same error reaches the caller of the query, which reports it once.
 */
const KNEX_LOG = {
  warn: (message: string) => {
    if (!message.startsWith('Acquire connection error')) process.stderr.write(`knex: ${message}\n`);
  },
  error: (message: string) => process.stderr.write(`knex: ${message}\n`),
  deprecate: (message: string) => process.stderr.write(`knex: ${message}\n`),
};

function openPostgres(url: string): Database {
  const knex = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 10 }, log: KNEX_LOG });
  // Prepared statements (short indexed reads) go over a few pipelined connections of their own:
  // statement-pipeline.ts, docs/decisions/0029-feed-reads-at-scale.md.
  const statements = new StatementPipeline(url);
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
    prepared: <T>(statement: PreparedStatement) => statements.run<T>(statement),
    ping: () => ping(knex),
    async close() {
      await Promise.all([knex.destroy(), statements.end()]);
    },
  };
}

/** PostgreSQL's smallest WAL segment and the least it keeps (two segments; "WAL Configuration"). */
const TEMPLATE_INITDB = ['--wal-segsize=1'];
const TEMPLATE_SETTINGS = ['-c', 'min_wal_size=2MB'];

async function openPglite({ dataDir, from, sharedBuffersMb, template }: EmbeddedConfig): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Loaded here, not at import: a process on PostgreSQL never needs PGlite's WebAssembly.
  const [{ PGlite }, { default: ClientPgLite }] = await Promise.all([import('@electric-sql/pglite'), import('knex-pglite')]);
  const pglite = await PGlite.create({
    dataDir: dataDir ?? undefined,
    loadDataDir: from,
    // PGlite's memory is one WebAssembly heap that starts by clearing the whole buffer pool: a
    // smaller pool starts a second sooner (a test database, docs/decisions/0071).
    startParams: [
      ...PGlite.defaultStartParams,
      ...(sharedBuffersMb ? ['-c', `shared_buffers=${sharedBuffersMb}MB`] : []),
      ...(template ? TEMPLATE_SETTINGS : []),
    ],
    ...(template ? { initDbStartParams: TEMPLATE_INITDB } : {}),
  });
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
    prepared: <T>({ text, values }: PreparedStatement) =>
      withConnection(knex, async (connection: PGlite) => (await connection.query<T>(text, values)).rows),
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

/** How often the holder of an advisory lock checks that its session is still there. */
const LOCK_CHECK_MS = 5_000;

/**
 * Runs `use` holding the session advisory lock named `name` on one connection of its own, or
 * gives null at once when another session holds it: two processes on one database never run
 * `use` for the same name at the same time (PostgreSQL "Advisory Locks"; PGlite has one session).
 * A session lock ends with its session, so when the connection drops (a server restart, the
 * network, pg_terminate_backend) another process may take it while `use` runs: `use`'s signal is
 * then aborted, on the connection's end or error or a check (`select 1` every `checkEveryMs`)
 * that fails or gets no answer before the next, and `use` must stop at its next check of it.
 */
export async function withAdvisoryLock<T>(
  db: Database,
  name: string,
  use: (signal: AbortSignal) => Promise<T>,
  options: { checkEveryMs?: number } = {},
): Promise<{ value: T } | null> {
  type Queryable = {
    query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
    on?(event: 'end' | 'error', listener: (error?: Error) => void): unknown;
    off?(event: 'end' | 'error', listener: (error?: Error) => void): unknown;
    end?(): Promise<void>;
  };
  return withConnection(db.knex, async (connection: Queryable) => {
    const { rows } = await connection.query('select pg_try_advisory_lock(hashtext($1)) as locked', [name]);
    if (rows[0]?.locked !== true) return null;
    const lost = new AbortController();
    const lose = (why: string) => {
      if (!lost.signal.aborted) lost.abort(new AdvisoryLockLost(name, why));
    };
    const onEnd = () => lose('its database session ended');
    const onError = (error?: Error) => lose(`its database session failed: ${error?.message ?? 'unknown error'}`);
    let checking = false;
    const timer =
      db.kind === 'postgres'
        ? setInterval(() => {
            if (checking) return lose(`its database session did not answer within ${options.checkEveryMs ?? LOCK_CHECK_MS} ms`);
            checking = true;
            connection.query('select 1').then(
              () => void (checking = false),
              (error: unknown) => lose(`its database session failed: ${error instanceof Error ? error.message : String(error)}`),
            );
          }, options.checkEveryMs ?? LOCK_CHECK_MS)
        : undefined;
    connection.on?.('end', onEnd);
    connection.on?.('error', onError);
    try {
      return { value: await use(lost.signal) };
    } finally {
      clearInterval(timer);
      connection.off?.('end', onEnd);
      connection.off?.('error', onError);
      if (!lost.signal.aborted) await connection.query('select pg_advisory_unlock(hashtext($1))', [name]);
      // Given up for lost, the session is ended rather than unlocked: gone, it released the lock
      // with it; merely slow, it must not go back to the pool still holding the lock. Not awaited:
      // a client whose socket already closed never reports the end again.
      else void Promise.resolve(connection.end?.()).catch(() => undefined);
    }
  });
}

/** The reason a lock holder's signal aborts: the lock was released with its session while held. */
export class AdvisoryLockLost extends Error {
  override name = 'AdvisoryLockLost';
  constructor(
    readonly lock: string,
    why: string,
  ) {
    super(`lost the advisory lock "${lock}": ${why}`);
  }
}
