import { randomUUID } from 'node:crypto';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Express } from 'express';
import { InProcessTransport, KafkaTransport, resourceEvent, type Transport } from '@fieldcast/bus';
import { openDatabase, type Database } from '@fieldcast/db';
import { createLogger, type Limits } from '@fieldcast/kit';
import { fieldcastId } from '@fieldcast/ids';
import { PRODUCT_GRANTS_TOPIC } from '@fieldcast/schemas';
import { productGrantEvent } from './product-grants.js';
import type { Catalog, GridSource, ProductDef, SyncedFrame, SyncedProducts, ZarrSource } from '@fieldcast/weather';
import { IdentityStore, KEY_HASHING, type KeyHashing, migrateIdentity, verifySecret } from './identity.js';
import type { AnyDeps, Service } from './needs.js';
import { prepareService, type PreparedService } from './services.js';

export { reservePort, reservePortBase } from './test-ports.js';

/**
 * Test harness for service tests (docs/architecture.md §8): PGlite and the in-process bus by
 * default; real PostgreSQL and Kafka when DATABASE_URL and KAFKA_BROKERS are set, in which case
 * an unreachable one fails the suite rather than skipping it.
 */
export interface TestFleet {
  db: Database;
  transport: Transport;
  identity: IdentityStore;
  app(area: string): Express;
  deps(area: string): AnyDeps;
  /**
   * One pass of a service's background tasks (the named one, or each) at the fleet's clock,
   * after any pass under way; a failing pass throws (docs/decisions/0180-background-tasks.md).
   */
  runBackground(area: string, task?: string): Promise<void>;
  /**
   * Asks each service to prepare what its first requests would wait for (StartedApi.warm), as
   * `startServices` does once a fleet listens; only with `background: true` (benches of first requests).
   * The promise says when the warm-ups that tell it are done.
   */
  warm(): Promise<void>;
  /** a fresh account with one key, and its Basic credentials */
  account(name?: string): Promise<TestAccount>;
  /** empties every table of the services' schemas and identity (between tests) */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAccount {
  id: string;
  handle: string;
  key: string;
  /** value for the Authorization header */
  auth: string;
}

export function basicAuthHeader(id: string, key: string): string {
  return `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;
}

/**
 * The migrated database the suite's global setup dumped (FIELDCAST_TEST_DATABASE,
 * scripts/test-fixtures.ts): starting PGlite from it skips initdb and every migration, most of a
 * fleet's start.
 */
let template: Promise<Blob> | undefined;
export function databaseTemplate(): Promise<Blob> | undefined {
  const file = process.env.FIELDCAST_TEST_DATABASE;
  // a Blob backed by the file: PGlite reads it without a copy in memory
  if (file) template ??= openAsBlob(file);
  return template;
}

/** A test's tables hold a few rows: a small buffer pool starts each database a second sooner. */
const TEST_SHARED_BUFFERS_MB = 16;

export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase({ dataDir: null, from: await databaseTemplate(), sharedBuffersMb: TEST_SHARED_BUFFERS_MB });
  const db = await openDatabase({ url });
  if (!(await db.ping())) throw new Error(`DATABASE_URL is set but PostgreSQL at ${url} is unreachable`);
  return db;
}

export async function openTestTransport(): Promise<Transport> {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) return new InProcessTransport();
  // Each test fleet in its own namespace of the shared broker: messages an earlier test file left
  // on a topic are not this fleet's to consume.
  const transport = new KafkaTransport({
    brokers: brokers.split(','),
    clientId: 'fieldcast-test',
    topicRefreshMs: 1000,
    namespace: `test-${randomUUID().slice(0, 8)}.`,
  });
  if (!(await transport.ready())) throw new Error(`KAFKA_BROKERS is set but Kafka at ${brokers} is unreachable`);
  return transport;
}

let accountCounter = 0;

/**
 * A test fleet hashes its accounts' keys with scrypt at N = 1,024 (2 ms a hash, not 45): its
 * tests make two accounts each and check each key once. Each hash carries its parameters, so the
 * services check keys as they do in production; identity.test.ts holds the production ones.
 */
const TEST_KEY_HASHING: KeyHashing = { ...KEY_HASHING, N: 1024 };

export interface TestFleetOptions {
  now?: () => Date;
  /** the weather of services that declare it; the synthetic world by default */
  weather?: GridSource;
  /** the catalog of services that declare it; the code's defaults by default */
  catalog?: Catalog;
  /** limits per account; the kit's defaults where not given */
  limits?: Partial<Limits>;
  /** reverse proxies whose X-Forwarded-For is believed; none by default */
  trustedProxies?: readonly string[];
  /** the file cache cap and signing key of services that declare files; a fresh temporary data dir holds their files */
  files?: { cacheBytes?: number; signingKey?: string };
  /**
   * whether services' background tasks run on their own clocks; off by default, so a test sees
   * state change only when it calls `runBackground`
   */
  background?: boolean;
  /** addresses and CIDR ranges webhooks may reach; nothing else, public or private, so no test reaches a real server */
  webhookAllowPrivate?: readonly string[];
  /** compute threads of each service that has them; as a served process's default (every core but one) where not given */
  computeThreads?: number;
}

/** The weather a test fleet hands out: none unless one of its services declares weather. */
async function testWeather(definitions: readonly Service[], options: TestFleetOptions): Promise<GridSource | undefined> {
  if (options.weather || !definitions.some((d) => d.needs.weather)) return options.weather;
  const { SyntheticSource } = await import('@fieldcast/weather');
  // on the fleet's clock, so its coverage (to 16 days after the hour) ends where the services' now says
  const now = options.now;
  return new SyntheticSource(now ? { now: () => now().getTime() } : {});
}

/** The catalog a test fleet hands out: none unless one of its services declares it. */
async function testCatalog(definitions: readonly Service[], options: TestFleetOptions): Promise<Catalog | undefined> {
  if (options.catalog || !definitions.some((d) => d.needs.catalog)) return options.catalog;
  const { createCatalog } = await import('@fieldcast/weather');
  return createCatalog();
}

/** Starts services as the runtime does, without listening: each gets only what it declared. */
export async function startTestFleet(definitions: readonly Service[], options: TestFleetOptions = {}): Promise<TestFleet> {
  const db = await openTestDatabase();
  const transport = await openTestTransport();
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const identity = new IdentityStore(db.knex, verifySecret, TEST_KEY_HASHING);
  const weather = await testWeather(definitions, options);
  const catalog = await testCatalog(definitions, options);
  await migrateIdentity(db);
  // Services that keep files get a data dir of their own, removed with the fleet.
  const dataDir = definitions.some((d) => d.needs.files) ? mkdtempSync(join(tmpdir(), 'fieldcast-test-')) : undefined;
  const prepared = new Map<string, PreparedService>();
  for (const definition of definitions) {
    prepared.set(
      definition.area,
      await prepareService(
        definition,
        {
          db,
          transport,
          logger,
          weather,
          catalog,
          vendor: 'fieldcast',
          bodyLimit: '1mb',
          now: options.now,
          limits: options.limits,
          trustedProxies: options.trustedProxies,
          files: dataDir ? { dataDir, ...options.files } : undefined,
          background: options.background ?? false,
          webhooks: { allowPrivate: options.webhookAllowPrivate ?? [], allowPublic: false },
          computeThreads: options.computeThreads,
        },
        identity,
      ),
    );
  }
  const schemas = ['identity', ...definitions.map((d) => d.area)];
  const get = (area: string) => {
    const p = prepared.get(area);
    if (!p) throw new Error(`service ${area} is not part of this test fleet`);
    return p;
  };
  return {
    db,
    transport,
    identity,
    app: (area) => get(area).app,
    deps: (area) => get(area).deps,
    runBackground: (area, task) => get(area).background.runOnce(task),
    warm: async () => {
      await Promise.all([...prepared.values()].map((p) => p.warm()));
    },
    async account(name) {
      accountCounter += 1;
      const handle = `${name ?? 'acct'}-${process.pid}-${accountCounter}-${Math.random().toString(36).slice(2, 8)}`.toLowerCase();
      const { account, applicationKey } = await identity.createAccount({ name: name ?? handle, handle });
      return { id: account.id, handle: account.handle, key: applicationKey, auth: basicAuthHeader(account.id, applicationKey) };
    },
    async reset() {
      const tables: { schemaname: string; tablename: string }[] = (
        await db.knex.raw(
          `select schemaname, tablename from pg_tables where schemaname = any(?) and tablename not like 'knex_migrations%'`,
          [schemas],
        )
      ).rows;
      if (tables.length === 0) return;
      const truncate = `truncate ${tables.map((t) => `"${t.schemaname}"."${t.tablename}"`).join(', ')} cascade`;
      // The previous test's background work (outbox relay, event consumer) may still hold a row
      // lock on one of these tables while waiting for another; PostgreSQL then aborts one side
      // with deadlock_detected (40P01). The truncate is the side to try again.
      for (let attempt = 1; ; attempt++) {
        try {
          await db.knex.raw(truncate);
          return;
        } catch (err) {
          if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
        }
      }
    },
    async close() {
      for (const p of [...prepared.values()].reverse()) await p.stop();
      await transport.close();
      await db.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Retries an assertion until it passes or the time is up (for asynchronous delivery). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

/**
 * How many characters PostgreSQL holds in a stored text column of a row (char_length counts code
 * points, as the schemas' limits do: docs/decisions/0485-limits-count-characters-and-thresholds-are-earthly.md).
 */
export async function storedCharLength(fleet: TestFleet, table: `${string}.${string}`, id: string, column: string): Promise<number> {
  const [schema, name] = table.split('.') as [string, string];
  const knex = fleet.db.knex;
  const row: { n: number } = await knex
    .withSchema(schema)
    .table(name)
    .where({ id })
    .first(knex.raw('char_length(??) as n', [column]));
  return row.n;
}

export interface TestContext {
  fleet: TestFleet;
  /** a fresh account per test */
  alice: TestAccount;
  /** another fresh account per test, for ownership and visibility checks */
  bob: TestAccount;
}

/**
 * How many frames the frame index of a fresh catalog holds when a fleet of `definitions` is
 * closed as its warm-up grows the index, and 20 turns of the event loop later: the same when its
 * areas stop the growth with them (docs/decisions/0321-frame-index-newest-first.md).
 */
export async function frameIndexAcrossClose(
  definitions: readonly Service[],
  options: TestFleetOptions = {},
): Promise<{ atClose: number; later: number }> {
  const { createCatalog, frameIndexOf } = await import('@fieldcast/weather');
  const catalog = createCatalog();
  const fleet = await startTestFleet(definitions, { ...options, catalog, background: true });
  const index = frameIndexOf(catalog.products());
  void fleet.warm();
  while (index.count === 0) await nextTurn();
  await fleet.close();
  const atClose = index.count;
  for (let i = 0; i < 20; i++) await nextTurn();
  return { atClose, later: index.count };
}

/**
 * Synced products that name one frame of `product` at `validMs`, read from `store`, and nothing
 * else, as the platform and tiles areas ask them (a frame by id): for tests of how a lookup
 * chooses between them and the catalog's frame index (docs/decisions/0321-frame-index-newest-first.md).
 */
export function oneSyncedFrame(product: ProductDef, validMs: number, store: GridSource): { frame: SyncedFrame; synced: SyncedProducts } {
  const frame: SyncedFrame = {
    id: fieldcastId('frame', 'a synced frame'),
    product,
    validMs,
    run: null,
    store: store as unknown as ZarrSource,
  };
  const synced = { find: async (id: string) => (id === frame.id ? frame : undefined) } as unknown as SyncedProducts;
  return { frame, synced };
}

/**
 * The usual lifecycle of a service test file: one fleet for the file, emptied before each test,
 * with two fresh accounts. Call at the top level of a test file; read the context inside tests.
 */
export function useTestFleet(definitions: readonly Service[], options: TestFleetOptions = {}): TestContext {
  const context = {} as TestContext;
  beforeAll(async () => {
    context.fleet = await startTestFleet(definitions, options);
  });
  afterAll(async () => {
    await context.fleet?.close();
  });
  beforeEach(async () => {
    await context.fleet.reset();
    context.alice = await context.fleet.account('alice');
    context.bob = await context.fleet.account('bob');
  });
  return context;
}

/**
 * Publishes the state of an account's grant of a restricted product as the platform area's relay
 * does, for an area that keeps a copy of the grants (product-grants.ts); creates the topic first,
 * as the platform does at start, so a Kafka consumer is subscribed to it.
 */
export async function publishProductGrant(fleet: TestFleet, accountId: string, productId: string, granted: boolean): Promise<void> {
  await fleet.transport.ensureTopics([PRODUCT_GRANTS_TOPIC]);
  const event = resourceEvent(productGrantEvent({ accountId, productId, granted }));
  await fleet.transport.publish([{ topic: PRODUCT_GRANTS_TOPIC, key: event.subject, event }]);
}

/**
 * Pairs of points that are one place, [longitude, latitude] asked and the one it is: every
 * longitude at a pole, and longitude 180 as -180 (docs/decisions/0428-one-point-read-per-place.md).
 * Each area that reads points checks it answers each pair alike.
 */
export const SAME_PLACES: readonly (readonly [number, number, number, number])[] = [
  [120, 90, 0, 90],
  [-180, 90, 0, 90],
  [180, 90, 0, 90],
  [-72.5, -90, 0, -90],
  [180, -90, 0, -90],
  [180, 52.3, -180, 52.3],
  [180, -89.7, -180, -89.7],
];
