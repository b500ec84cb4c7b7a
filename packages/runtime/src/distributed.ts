import { KafkaTransport } from '@fieldcast/bus';
import { openDatabase } from '@fieldcast/db';
import { createLogger } from '@fieldcast/kit';
import { ConfigError, filesFromEnv, FleetEnv, parseEnv, syncDirFromEnv } from './env.js';
import { listenHost } from './hosts.js';
import { limitsFromEnv } from './limits.js';
import { needsTransport, type Service } from './needs.js';
import { portOf } from './ports.js';
import { startServices, stopOnSignals, type RunningFleet } from './services.js';
import { openCatalog, openWeather } from './weather.js';

/**
 * One service in distributed mode (docs/architecture.md §2), the entry point of its container:
 * PostgreSQL via DATABASE_URL, always (accounts live there); Kafka via KAFKA_BROKERS when the
 * service publishes or consumes; weather only when it declares it. It listens on PORT (default
 * PORT_BASE + the area's offset), and answers /metrics on FIELDCAST_METRICS_PORT instead when it is set.
 */
export async function serveDistributed(service: Service, env: NodeJS.ProcessEnv = process.env): Promise<RunningFleet> {
  const config = parseEnv(FleetEnv, env);
  const withTransport = needsTransport(service);
  const missing = [!config.DATABASE_URL && 'DATABASE_URL', withTransport && !config.KAFKA_BROKERS && 'KAFKA_BROKERS'].filter(Boolean);
  if (missing.length > 0) {
    throw new ConfigError(
      `Distributed mode needs ${missing.join(' and ')} (e.g. DATABASE_URL=postgres://user@host:5432/db KAFKA_BROKERS=host:9092)`,
    );
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: service.area });
  // Pods read stores over HTTP or from a mounted volume (FIELDCAST_WEATHER_STORES), and the synced
  // stores on the data dir's volume (docs/decisions/0251-synced-stores-registry.md); no ingest catalog here.
  const weather = service.needs.weather
    ? await openWeather({
        storeUrls: config.FIELDCAST_WEATHER_STORES ?? [],
        syncDir: syncDirFromEnv(config),
        synthetic: config.FIELDCAST_SYNTHETIC,
        reloadMs: config.FIELDCAST_SYNC_RELOAD_MS,
        onReload: () => logger.info('weather: synced stores changed'),
        onReloadError: (error) => logger.error({ err: error }, 'weather: synced stores could not be opened; serving the ones before'),
      })
    : undefined;
  for (const line of weather?.description ?? []) logger.info(`weather: ${line}`);
  const catalog = service.needs.catalog ? await openCatalog(config.FIELDCAST_CATALOG) : undefined;
  const db = await openDatabase({ url: config.DATABASE_URL! });
  const transport = withTransport
    ? new KafkaTransport({ brokers: config.KAFKA_BROKERS!, clientId: `${config.KAFKA_CLIENT_ID}-${service.area}` })
    : undefined;
  const port = config.PORT ?? portOf(service, config.PORT_BASE);
  const metricsPort = config.FIELDCAST_METRICS_PORT;
  if (metricsPort === port) throw new ConfigError(`FIELDCAST_METRICS_PORT must differ from the service's port (${port})`);
  const fleet = await startServices([{ definition: service, port, ...(metricsPort === undefined ? {} : { metricsPort }) }], {
    db,
    transport,
    logger,
    weather: weather?.source,
    catalog,
    vendor: config.FIELDCAST_VENDOR,
    bodyLimit: config.BODY_LIMIT,
    computeThreads: config.FIELDCAST_COMPUTE_THREADS,
    files: filesFromEnv(config),
    limits: limitsFromEnv(config),
    trustedProxies: config.FIELDCAST_TRUSTED_PROXIES,
    webhooks: { allowPrivate: config.FIELDCAST_WEBHOOK_ALLOW_PRIVATE, allowPublic: true },
    background: config.FIELDCAST_BACKGROUND,
    host: listenHost('distributed', config.HOST),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  });
  for (const s of fleet.services) logger.info({ url: s.url, ...(s.metricsUrl ? { metricsUrl: s.metricsUrl } : {}) }, `${s.area} listening`);
  stopOnSignals(fleet, logger);
  return fleet;
}
