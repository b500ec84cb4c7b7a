import { openDatabase } from '@fieldcast/db';
import { KafkaTransport } from '@fieldcast/bus';
import { describeWeatherSource, loadWeatherSource, WeatherStoreError } from '@fieldcast/weather';
import { ConfigError, FleetEnv, parseEnv } from './env.js';
import { createLogger } from './logger.js';
import { portOf } from './ports.js';
import { startServices, stopOnSignals, type RunningFleet } from './runtime.js';
import type { ServiceDefinition } from './service.js';

/**
 * One service in distributed mode (DESIGN.md section 2): PostgreSQL via DATABASE_URL and Kafka
 * via KAFKA_BROKERS, both required; it listens on PORT (default PORT_BASE + the area's offset).
 */
export async function serveDistributed(definition: ServiceDefinition, env: NodeJS.ProcessEnv = process.env): Promise<RunningFleet> {
  const config = parseEnv(FleetEnv, env);
  const missing = [!config.DATABASE_URL && 'DATABASE_URL', !config.KAFKA_BROKERS && 'KAFKA_BROKERS'].filter(Boolean);
  if (missing.length > 0) {
    throw new ConfigError(`Distributed mode needs ${missing.join(' and ')} (e.g. DATABASE_URL=postgres://user@host:5432/db KAFKA_BROKERS=host:9092)`);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: definition.area });
  // Pods read stores over HTTP or from a mounted volume (FIELDCAST_WEATHER_STORES); no data dir catalog here.
  const weather = await loadWeatherSource({ storeUrls: config.FIELDCAST_WEATHER_STORES ?? [] }).catch((err: unknown) => {
    throw err instanceof WeatherStoreError ? new ConfigError(err.message) : err;
  });
  for (const line of describeWeatherSource(weather)) logger.info(`weather: ${line}`);
  const db = await openDatabase({ url: config.DATABASE_URL! });
  const transport = new KafkaTransport({ brokers: config.KAFKA_BROKERS!, clientId: `${config.KAFKA_CLIENT_ID}-${definition.area}` });
  const fleet = await startServices([{ definition, port: config.PORT ?? portOf(definition.area, config.PORT_BASE) }], {
    db,
    transport,
    logger,
    weather,
    vendor: config.FIELDCAST_VENDOR,
    bodyLimit: config.BODY_LIMIT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  });
  for (const s of fleet.services) logger.info({ url: s.url }, `${s.area} listening`);
  stopOnSignals(fleet, logger);
  return fleet;
}
