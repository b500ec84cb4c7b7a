/**
 * `fieldcast serve sync`: the sync poller as a process of its own (docs/decisions/0252-sync-as-a-process.md).
 * Each pass of a source runs under a PostgreSQL advisory lock named after the source, so any
 * number of replicas share the work and never sync one run twice at once; stores go to
 * FIELDCAST_DATA_DIR's `sync` directory, the volume every area's replicas read
 * (docs/decisions/0251-synced-stores-registry.md). After each pass it registers what it stored in
 * the model area's registry tables with their events in that area's outbox, as the model area's
 * own background task does (docs/decisions/0310-synced-registry-in-the-database.md). It answers
 * /healthz, /readyz (the database) and /metrics (passes per source and outcome) for the probes, the
 * last on FIELDCAST_METRICS_PORT instead when that is set.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Database, openDatabase, outboxWriter, withAdvisoryLock } from '@fieldcast/db';
import { createLogger, type Logger } from '@fieldcast/kit';
import { modelService } from '@fieldcast/model';
import { SyncedRegistry } from '@fieldcast/model/synced-registry';
import { ConfigError, type FleetEnv, migrateService, openCatalog, portOf, SYNC, syncDirFromEnv } from '@fieldcast/runtime';
import { SOURCES, type SourceName, SyncConfigError, type SyncResult, isSourceName, runName, syncRun } from '@fieldcast/sync';
import { syncOptions } from './sync.js';
import { type SyncOutcome, SyncPasses } from './sync-passes.js';

export interface RunningSync {
  url: string;
  /** where /metrics is served when on a port of its own (FIELDCAST_METRICS_PORT) */
  metricsUrl?: string;
  /** one pass of every source now (each under its lock); what each did, or null when another process held its lock */
  pass(): Promise<Array<{ source: SourceName; result: SyncResult | Error | null }>>;
  /** passes every FIELDCAST_SYNC_POLL_MS from now on, the first at once */
  start(): void;
  stop(): Promise<void>;
}

export async function serveSync(
  env: FleetEnv,
  logger: Logger,
  options: { port?: number; metricsPort?: number; database?: Database } = {},
): Promise<RunningSync> {
  const sources = env.FIELDCAST_SYNC_SOURCES.filter(isSourceName);
  if (!env.DATABASE_URL && !options.database) throw new ConfigError('serve sync needs DATABASE_URL (its lock lives there)');
  if (sources.length === 0) throw new ConfigError(`serve sync needs FIELDCAST_SYNC_SOURCES (${Object.keys(SOURCES).join(', ')})`);
  // A bad FIELDCAST_SOURCE_<NAME>_URL stops start-up naming it (docs/operations.md "Environment"),
  // rather than fail every pass for as long as the process runs.
  for (const source of sources) {
    try {
      syncOptions(source, env);
    } catch (err) {
      throw err instanceof SyncConfigError ? new ConfigError(err.message) : err;
    }
  }
  const db = options.database ?? (await openDatabase({ url: env.DATABASE_URL! }));
  // The registry's tables are the model area's: migrated as that area migrates them (replicas in turn).
  await migrateService(db, modelService);
  // The frames a step makes are of the products the catalog gives each source (as the platform lists them).
  const catalog = await openCatalog(env.FIELDCAST_CATALOG);
  const registry = new SyncedRegistry(db.knex, outboxWriter(db, modelService.area), catalog.products());
  const syncDir = syncDirFromEnv(env);
  const passes = new SyncPasses();
  const count = (source: SourceName, outcome: SyncOutcome) => passes.count(source, outcome);

  // Aborted by stop(): a pass under way ends at once, its requests with it, since a pod has its
  // grace period (SIGTERM, then SIGKILL) to exit in; what it staged stays for the next pass.
  const stopping = new AbortController();
  const passOne = async (source: SourceName): Promise<SyncResult | Error | null> => {
    // A lock lost with its session (another replica may then take the source) stops the pass at its next step.
    const held = await withAdvisoryLock(db, `fieldcast-sync:${source}`, async (signal) => {
      try {
        return await syncRun({
          ...syncOptions(source, env),
          partial: true,
          stepRetries: 0,
          signal: AbortSignal.any([signal, stopping.signal]),
          progress: (l) => logger.info(`sync: ${l}`),
        });
      } catch (error) {
        // Any failure ends this pass only (see pollSource): the next pass runs on schedule.
        const failure = error instanceof Error ? error : new Error(String(error));
        if (!stopping.signal.aborted) logger.error({ source, err: failure }, `sync: ${source} failed: ${failure.message}`);
        return failure;
      }
    });
    if (!held) {
      count(source, 'locked');
      return null;
    }
    const result = held.value;
    count(source, result instanceof Error ? 'failed' : result.state);
    if (!(result instanceof Error) && result.state === 'pending')
      logger.info(`sync: ${source} ${runName(result.runMs)}: ${result.staged} of ${result.of} steps in`);
    return result;
  };
  const pass = async () => {
    const results = await Promise.all(sources.map(async (source) => ({ source, result: await passOne(source) })));
    // Insert-if-absent: what another replica or the model area registered already is left alone.
    // A failure leaves the steps on disk for the next pass, or the model area's task, to register.
    await registry.register(syncDir, Date.now()).catch((error: unknown) => {
      logger.error({ err: error }, 'sync: registering the synced steps failed; the next pass tries again');
    });
    return results;
  };

  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    running = pass()
      .catch((error: unknown) => logger.error({ err: error }, 'sync: pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(schedule, env.FIELDCAST_SYNC_POLL_MS);
      });
  };

  const metricsPort = options.metricsPort ?? env.FIELDCAST_METRICS_PORT;
  const metrics = (res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(passes.text());
  const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0];
  const server: Server = createServer((req, res) => {
    const path = pathOf(req);
    if (path === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    if (path === '/readyz') {
      db.knex
        .raw('select 1')
        .then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}'))
        .catch(() => res.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"database unreachable"}'));
      return;
    }
    // With a metrics port, /metrics is there alone (docs/decisions/0449-metrics-on-a-port-of-their-own.md).
    if (path === '/metrics' && metricsPort === undefined) return metrics(res);
    res.writeHead(404).end();
  });
  const metricsServer =
    metricsPort === undefined
      ? undefined
      : createServer((req, res) => (pathOf(req) === '/metrics' ? metrics(res) : res.writeHead(404).end()));
  // A port that cannot be listened on rejects with listen(2)'s error, which the CLI says in one
  // line, rather than crashing the process from an 'error' event nobody handles.
  const listen = (on: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      on.once('error', reject);
      on.listen(port, env.HOST ?? '0.0.0.0', () => {
        on.off('error', reject);
        resolve();
      });
    });
  const urlOf = (on: Server) => `http://127.0.0.1:${(on.address() as AddressInfo).port}`;
  const close = (on: Server) => new Promise<void>((resolve) => on.close(() => resolve()));
  try {
    await listen(server, options.port ?? env.PORT ?? portOf(SYNC, env.PORT_BASE));
    if (metricsServer) await listen(metricsServer, metricsPort!);
  } catch (err) {
    if (server.listening) await close(server);
    if (!options.database) await db.close();
    throw err;
  }
  return {
    url: urlOf(server),
    ...(metricsServer ? { metricsUrl: urlOf(metricsServer) } : {}),
    pass,
    start: schedule,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort(new Error('stopped'));
      await running;
      await Promise.all([close(server), ...(metricsServer ? [close(metricsServer)] : [])]);
      if (!options.database) await db.close();
    },
  };
}

/** `fieldcast serve sync` until SIGTERM or SIGINT. */
export async function runServeSync(env: FleetEnv): Promise<void> {
  const logger = createLogger({ level: env.LOG_LEVEL, name: 'sync' });
  const running = await serveSync(env, logger);
  running.start();
  const metricsOn = running.metricsUrl ? `, /metrics on ${running.metricsUrl}` : '';
  logger.info(`sync: serving on ${running.url}${metricsOn}, sources ${env.FIELDCAST_SYNC_SOURCES.join(', ')}`);
  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
