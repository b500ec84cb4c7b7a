import { startConsole, type RunningConsole } from '@fieldcast/console';
import { InProcessTransport, KafkaTransport, type Transport } from '@fieldcast/bus';
import { openDatabase } from '@fieldcast/db';
import { createLogger, type Logger } from '@fieldcast/kit';
import { isSourceName } from '@fieldcast/sync';
import { storesOf } from '@fieldcast/weather';
import {
  CONSOLE,
  FleetEnv,
  filesFromEnv,
  IdentityStore,
  limitsFromEnv,
  listenHost,
  migrateIdentity,
  needsTransport,
  openCatalog,
  openWeather,
  portOf,
  startServices,
  syncDirFromEnv,
  stopOnSignals,
  type OpenedWeather,
  type RunningFleet,
} from '@fieldcast/runtime';
import { ensureDemoArchiveUser } from './archive.js';
import { DataDir } from './data-dir.js';
import { ingestDefaults } from './ingest.js';
import { type LatticeWriter, writeLatticeInBackground } from './lattice-writer.js';
import { ensureDemoAccount, type Credentials } from './demo-account.js';
import { SERVICES } from './services.js';
import { pollSource, syncOptions } from './sync.js';
import { SyncPasses } from './sync-passes.js';

export interface StartedFleet {
  fleet: RunningFleet;
  demo: Credentials | null;
  /** the web console on PORT_BASE (docs/architecture.md §2) */
  console: RunningConsole;
  /** the climate lattice's writer, when the file was missing and a command to write it given */
  lattice: LatticeWriter | null;
}

/**
 * The weather the fleet serves (docs/architecture.md §2), when one of its services needs weather:
 * the stores of FIELDCAST_WEATHER_STORES, then those `fieldcast ingest` registered in
 * <data dir>/stores.yaml, before the synthetic world.
 */
async function loadWeather(env: FleetEnv, logger: Logger): Promise<OpenedWeather | null> {
  if (!SERVICES.some((s) => s.needs.weather)) return null;
  return openWeather({
    storeUrls: env.FIELDCAST_WEATHER_STORES ?? [],
    storesCatalogPath: ingestDefaults(env.FIELDCAST_DATA_DIR).catalogPath,
    // Synced stores, served again within FIELDCAST_SYNC_RELOAD_MS of a change (docs/decisions/0251-synced-stores-registry.md).
    syncDir: syncDirFromEnv(env),
    synthetic: env.FIELDCAST_SYNTHETIC,
    reloadMs: env.FIELDCAST_SYNC_RELOAD_MS,
    onReload: (source) => logger.info({ stores: storesOf(source) }, 'weather: synced stores changed'),
    onReloadError: (error) => logger.error({ err: error }, 'weather: synced stores could not be opened; serving the ones before'),
  });
}

/**
 * Pollers of the sources in FIELDCAST_SYNC_SOURCES (unset: none), stopped with the fleet. A failed
 * pass is logged as an error and counted in `passes`, which every area's /metrics reports.
 */
function startSyncPollers(env: FleetEnv, logger: Logger, passes: SyncPasses): () => Promise<void> {
  const abort = new AbortController();
  const reports = {
    passes,
    failed: (line: string, error: unknown) => logger.error({ err: error }, `sync: ${line}`),
  };
  const running = env.FIELDCAST_SYNC_SOURCES.filter(isSourceName).map((source) =>
    pollSource(syncOptions(source, env), env.FIELDCAST_SYNC_POLL_MS, (line) => logger.info(`sync: ${line}`), abort.signal, reports).catch(
      (error: unknown) => logger.error({ err: error }, `sync: ${source} poller stopped`),
    ),
  );
  return async () => {
    abort.abort();
    await Promise.all(running);
  };
}

/** The in-process bus, or Kafka when KAFKA_BROKERS is set; none when no service publishes or consumes. */
function openTransport(env: FleetEnv): Transport | undefined {
  if (!SERVICES.some(needsTransport)) return undefined;
  return env.KAFKA_BROKERS ? new KafkaTransport({ brokers: env.KAFKA_BROKERS, clientId: env.KAFKA_CLIENT_ID }) : new InProcessTransport();
}

/**
 * `fieldcast start`: every service in one process (docs/architecture.md §2). Embedded defaults are
 * PGlite under the data dir and the in-process bus; DATABASE_URL or KAFKA_BROKERS, when set,
 * swap in PostgreSQL or Kafka for the same process.
 */
export async function startFleet(
  env: FleetEnv,
  options: {
    print?: (line: string) => void;
    /** the node arguments that run the fieldcast CLI, to write the climate lattice in the background when it is missing */
    latticeCommand?: readonly string[];
    /**
     * a dump of a migrated embedded database (`dumpDatabase`) that a new data dir's database
     * starts from instead of initdb and every migration: tests pass the suite's template
     */
    databaseSeed?: Blob;
  } = {},
): Promise<StartedFleet> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const logger = createLogger({ level: env.LOG_LEVEL });
  const dir = new DataDir(env.FIELDCAST_DATA_DIR);
  const embedded = !env.DATABASE_URL;
  if (embedded) dir.claim();
  let weather: OpenedWeather | null = null;
  const closeWeather = async () => weather?.close();
  try {
    weather = await loadWeather(env, logger);
    // One catalog for every area that declares it, with its YAML override (docs/architecture.md §6).
    const catalog = SERVICES.some((s) => s.needs.catalog) ? await openCatalog(env.FIELDCAST_CATALOG) : undefined;
    const db = embedded ? await dir.open(options.databaseSeed) : await openDatabase({ url: env.DATABASE_URL! });
    const transport = openTransport(env);
    // The sync pollers run in this process: their passes are figures of every area's /metrics.
    const syncPasses = new SyncPasses();
    await migrateIdentity(db);
    let demo: Credentials | null = null;
    if (embedded) {
      const result = await ensureDemoAccount(new IdentityStore(db.knex), dir.demoAccountFile);
      demo = result.credentials;
    }
    const fleet = await startServices(
      SERVICES.map((definition) => ({ definition, port: portOf(definition, env.PORT_BASE) })),
      {
        db,
        transport,
        logger,
        weather: weather?.source,
        catalog,
        vendor: env.FIELDCAST_VENDOR,
        bodyLimit: env.BODY_LIMIT,
        computeThreads: env.FIELDCAST_COMPUTE_THREADS,
        files: filesFromEnv(env),
        limits: limitsFromEnv(env),
        trustedProxies: env.FIELDCAST_TRUSTED_PROXIES,
        webhooks: { allowPrivate: env.FIELDCAST_WEBHOOK_ALLOW_PRIVATE, allowPublic: true },
        background: env.FIELDCAST_BACKGROUND,
        host: listenHost('embedded', env.HOST),
        shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
        metrics: [syncPasses.metric()],
      },
    );
    // The archive's schema is migrated now: the demo account's archive user can be registered.
    const archiveUser = embedded ? await ensureDemoArchiveUser(db, dir.path) : null;
    const stop = fleet.stop;
    let webConsole: RunningConsole;
    try {
      // The console on PORT_BASE, pointed at this process's areas (decision 0190).
      webConsole = await startConsole({
        port: portOf(CONSOLE, env.PORT_BASE),
        host: listenHost('embedded', env.HOST),
        config: {
          areas: Object.fromEntries(fleet.services.map((s) => [s.area, s.url])),
          demo,
          archive: archiveUser ? { user: archiveUser.credentials.user, token: archiveUser.credentials.token } : null,
        },
      });
    } catch (err) {
      await stop();
      throw err;
    }
    const lattice = weather && options.latticeCommand ? writeLatticeInBackground(options.latticeCommand, print) : null;
    const stopSync = startSyncPollers(env, logger, syncPasses);
    fleet.stop = async () => {
      await stopSync();
      await lattice?.stop();
      await webConsole.stop();
      await stop();
      await closeWeather();
      if (embedded) dir.release();
    };
    print('Fieldcast is running:');
    print(`  ${'console'.padEnd(13)} ${webConsole.url}`);
    for (const s of fleet.services) print(`  ${s.area.padEnd(13)} ${s.url}`);
    if (weather) {
      print('');
      print('Weather:');
      for (const line of weather.description) print(`  ${line}`);
      if (lattice) print(`  writing the synthetic climate's lattice (once per machine, about a minute): ${lattice.file}`);
    }
    if (demo) {
      print('');
      print(`Demo account (saved in ${dir.demoAccountFile}):`);
      print(`  applicationId  ${demo.applicationId}`);
      print(`  applicationKey ${demo.applicationKey}`);
      // A list that has items from the first start: the products (a new account has no fields yet).
      const platform = fleet.services.find((s) => s.area === 'platform');
      if (platform) print(`  try: curl -u ${demo.applicationId}:${demo.applicationKey} ${platform.url}/products`);
    }
    const archive = fleet.services.find((s) => s.area === 'archive');
    if (archiveUser && archive) {
      print('');
      print(`Archive user for ${archiveUser.credentials.ranges.join(' and ')} (saved in ${archiveUser.file}):`);
      print(`  u ${archiveUser.credentials.user}`);
      print(`  t ${archiveUser.credentials.token}`);
      print(
        // A past spring and summer with hail near Oklahoma City in the synthetic world (the default, the last 90 days, may have none).
        `  try: curl '${archive.url}/v2/hailsize/summary/+35.4676-097.5164?radius=20&begin=2025-04-01T00:00:00Z&end=2025-08-01T00:00:00Z&u=${archiveUser.credentials.user}&t=${archiveUser.credentials.token}'`,
      );
    }
    print('');
    print('Ctrl-C stops the fleet.');
    return { fleet, demo, console: webConsole, lattice };
  } catch (err) {
    await closeWeather();
    if (embedded) dir.release();
    throw err;
  }
}

export async function runStart(env: FleetEnv): Promise<void> {
  // This process runs the CLI: the same node arguments and script run `fieldcast climate-lattice`.
  const { fleet } = await startFleet(env, { latticeCommand: [...process.execArgv, process.argv[1]!] });
  stopOnSignals(fleet, createLogger({ level: env.LOG_LEVEL }));
}
