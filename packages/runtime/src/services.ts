import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Express } from 'express';
import { InProcessTransport, type IncomingMessage, type Transport } from '@fieldcast/bus';
import { IdempotencyKeys, keepsIdempotencyKeys, migrateSchema, Outbox, outboxMigration, type Database } from '@fieldcast/db';
import {
  answerClientError,
  createServiceApp,
  type HttpDeps,
  metricsApp,
  type Limits,
  type Logger,
  type MetricSource,
  startedApi,
  type StartedApi,
} from '@fieldcast/kit';
import type { Catalog, GridSource } from '@fieldcast/weather';
import { type BackgroundTask, BackgroundTasks } from './background.js';
import { untilDone } from './broker-retry.js';
import { watchConsumerStalls } from './consumer-stalls.js';
import { type ConsumedTopics, pipelineMetrics } from './pipeline-metrics.js';
import { type FilesConfig, serviceFiles } from './files.js';
import { IdentityStore, migrateIdentity } from './identity.js';
import { needsTransport, topicsOf, type AnyDeps, type Service, type WebhookPolicy } from './needs.js';
import { signalExitCode } from './signal-exit.js';
import { gridRequestErrors } from './weather.js';

/** What the services of one process share; each service is handed only the parts it declared. */
export interface SharedDeps {
  db: Database;
  /** required when a service publishes (outbox) or consumes */
  transport?: Transport;
  logger: Logger;
  /** required when a service declares weather */
  weather?: GridSource;
  /** required when a service declares the catalog: loaded once per process (openCatalog) */
  catalog?: Catalog;
  vendor: string;
  bodyLimit: string;
  /** limits per account (limitsFromEnv); the kit's defaults where not given */
  limits?: Partial<Limits>;
  now?: () => Date;
  /** worker threads of each service that declares weather; default every core but one, at least one */
  computeThreads?: number;
  /** reverse proxies whose X-Forwarded-For is believed (FIELDCAST_TRUSTED_PROXIES) */
  trustedProxies?: readonly string[];
  /** required when a service declares files: the data dir, the cache cap and the signing key */
  files?: FilesConfig;
  /**
   * whether services' background tasks run on their clocks (FIELDCAST_BACKGROUND); default yes.
   * Off, they are still built and can be run by hand (`PreparedService.background.runOnce`).
   */
  background?: boolean;
  /**
   * whether the process still takes requests: false once it is shutting down, which fails
   * /readyz (`"serving": false`) while in-flight requests drain; always true when not given
   */
  serving?: () => boolean;
  /** where services' webhook requests may go (FIELDCAST_WEBHOOK_ALLOW_PRIVATE); public addresses and no private ones by default */
  webhooks?: WebhookPolicy;
  /** figures of the process rather than of one service (the embedded fleet's sync pollers), in every service's /metrics */
  metrics?: readonly MetricSource[];
  /** whether each service's /metrics is served apart from its app (HttpDeps.metricsApart); startServices sets it per service */
  metricsApart?: boolean;
}

/**
 * Migrates a service's schema. Every service schema carries the outbox table from its first
 * migration on: knex refuses a schema whose recorded migrations are missing from the list, so
 * `000_outbox` stays in the list whether or not the service relays.
 */
export async function migrateService(db: Database, service: Service): Promise<void> {
  const { database, outbox } = service.needs;
  if (!database && !outbox) return;
  await migrateSchema(db.knex, service.area, [outboxMigration(), ...(database?.migrations ?? [])]);
}

/**
 * Deletes expired Idempotency-Keys' answers hourly: one statement, so any number of replicas may
 * run it (docs/decisions/0180-background-tasks.md). Until it runs, an expired key is already not
 * found (IdempotencyKeys.find).
 */
function pruneIdempotencyKeys(keys: IdempotencyKeys): BackgroundTask {
  return { name: 'idempotency-keys', everyMs: 3_600_000, run: async (nowMs) => void (await keys.prune(new Date(nowMs))) };
}

function required<T>(value: T | undefined, what: string, service: Service): T {
  if (value === undefined) throw new Error(`service ${service.area} needs ${what}, and none was given`);
  return value;
}

export interface PreparedService {
  deps: AnyDeps;
  app: Express;
  /** its background tasks (docs/decisions/0180-background-tasks.md) */
  background: BackgroundTasks;
  /**
   * Prepares what its first requests would wait for (StartedApi.warm), where background tasks
   * run: called once every service of the process listens, so start-up is not slowed by it.
   */
  warm(): Promise<void>;
  /** stops its background tasks, so they write nothing more: the first step of a shutdown */
  stopBackground(): Promise<void>;
  /** publishes what its outbox holds now (nothing when it has none); the rows still unsent after it */
  flush(): Promise<number>;
  /** stops its background tasks, its consumers and its outbox relay */
  stop(): Promise<void>;
}

/**
 * Migrates a service's schema, creates its topics, starts its relay and consumers, and builds its
 * app from the dependencies it declared. Identity is migrated by the caller, once per process.
 */
export async function prepareService(service: Service, shared: SharedDeps, identity: IdentityStore): Promise<PreparedService> {
  const { db } = shared;
  const { needs } = service;
  await migrateService(db, service);
  const logger = shared.logger.child({ service: service.area });
  const transport = needsTransport(service) ? required(shared.transport, 'a transport', service) : undefined;
  const outbox = needs.outbox ? new Outbox({ db, schema: service.area, transport: transport!, logger }) : undefined;
  // Without the broker a service still starts and serves: its topics are made and its consumers
  // join when the broker answers.
  const topics = transport
    ? await untilDone(`topics of ${service.area}`, () => transport.ensureTopics([...topicsOf(service)]), logger)
    : undefined;
  // An area whose schema keeps its creates' answers takes Idempotency-Keys on its creates
  // (docs/decisions/0434-creates-answered-again-under-an-idempotency-key.md).
  const keys = keepsIdempotencyKeys(needs.database?.migrations ?? [])
    ? new IdempotencyKeys(db.knex, service.area, shared.now ?? (() => new Date()))
    : undefined;
  const http: HttpDeps = {
    identity,
    logger,
    vendor: shared.vendor,
    bodyLimit: shared.bodyLimit,
    ...(shared.limits ? { limits: shared.limits } : {}),
    ...(shared.trustedProxies ? { trustedProxies: shared.trustedProxies } : {}),
    now: shared.now ?? (() => new Date()),
    ...(needs.weather ? { errorTranslations: [gridRequestErrors] } : {}),
    // Auth reads schema identity, so every service needs the database. No request waits for the
    // broker (changes wait in the outbox, consumers catch up), so a broker outage is reported,
    // never a reason to take a replica out of service (docs/architecture.md §5).
    ready: async () => ({ database: await db.ping(), ...(shared.serving?.() === false ? { serving: false } : {}) }),
    ...(transport ? { reports: async () => ({ transport: await transport.ready() }) } : {}),
    metrics: [...pipelineMetrics(outbox, transport, () => consumed), ...(shared.metrics ?? [])],
    ...(shared.metricsApart ? { metricsApart: true } : {}),
    ...(keys ? { idempotency: keys } : {}),
  };
  const deps: AnyDeps = {
    ...http,
    ...(needs.database ? { db } : {}),
    ...(outbox ? { outbox } : {}),
    ...(needs.weather ? { weather: required(shared.weather, 'weather', service) } : {}),
    ...(needs.catalog ? { catalog: required(shared.catalog, 'the catalog', service) } : {}),
    ...(needs.weather || needs.compute ? { computeThreads: shared.computeThreads ?? Math.max(1, availableParallelism() - 1) } : {}),
    ...(needs.files ? { files: serviceFiles(required(shared.files, 'a data dir for its files', service), service.area) } : {}),
    ...(needs.webhooks ? { webhooks: shared.webhooks ?? { allowPrivate: [], allowPublic: true } } : {}),
  };
  await outbox?.start();
  const subscriptions: { stop(): Promise<void> }[] = [];
  const consumed: ConsumedTopics[] = [];
  let background: BackgroundTasks | undefined;
  let started: StartedApi | undefined;
  // Background passes end first: what the last one wrote to the outbox is then drained by the relay's stop.
  const stop = async () => {
    await background?.stop();
    await topics?.stop();
    for (const s of subscriptions.splice(0).reverse()) await s.stop();
    await outbox?.stop();
    await started?.close();
  };
  try {
    for (const consumer of service.consumers?.(deps) ?? []) {
      const outcomes = new Map<string, number>();
      consumed.push({ group: consumer.group, topics: consumer.topics, outcomes });
      const handle = async (message: IncomingMessage) => {
        const outcome = (await consumer.handle(message)) ?? 'handled';
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      };
      const subscribe = () => transport!.subscribe(consumer.group, consumer.topics, handle);
      const subscription = await untilDone(`consumer group ${consumer.group}`, subscribe, logger);
      subscriptions.push(
        consumer.stop
          ? {
              stop: async () => {
                await subscription.stop();
                await consumer.stop!();
              },
            }
          : subscription,
      );
    }
    if (consumed.length > 0) subscriptions.push(watchConsumerStalls(transport!, () => consumed, logger));
    // What building its operations started (worker threads) is closed last, by `stop`.
    started = startedApi(service.api(deps as never));
    const api = started.api;
    const app = createServiceApp({ ...service, api: () => api }, deps);
    background = new BackgroundTasks(
      [...(service.background?.(deps as never) ?? []), ...(keys ? [pruneIdempotencyKeys(keys)] : [])],
      http.now,
      logger,
    );
    const runsBackground = shared.background ?? true;
    if (runsBackground) background.start();
    const { warm } = started;
    return {
      deps,
      app,
      background,
      warm: async () => (runsBackground ? warm?.() : undefined),
      stopBackground: () => background!.stop(),
      flush: async () => {
        if (!outbox) return 0;
        await outbox.flush();
        return outbox.pending();
      },
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

export interface RunningService {
  area: string;
  url: string;
  app: Express;
  server: Server;
  /** where its /metrics is served when on a port of its own (FIELDCAST_METRICS_PORT) */
  metricsUrl?: string;
  metricsServer?: Server;
  deps: AnyDeps;
}

export interface RunningFleet {
  services: RunningService[];
  /** graceful: stop accepting, finish in-flight requests, stop consumers, drain outboxes, close */
  stop(): Promise<void>;
}

/**
 * Serves an app on a port. A request Node's HTTP parser refuses before the app sees it (headers
 * over 16 KB, RFC 6585 section 5) is answered with problem+json like every other failure.
 */
export function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.on('clientError', answerClientError);
    const responses = new Set<ServerResponse>();
    unfinished.set(server, responses);
    server.prependListener('request', (_req, res: ServerResponse) => {
      // a request on a kept-alive connection of a stopping server is answered, then its connection closed
      if (!server.listening) closeConnectionAfter(res);
      responses.add(res);
      res.once('close', () => responses.delete(res));
    });
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

/** Each listening server's responses not yet finished (listen), which a stop answers with `Connection: close`. */
const unfinished = new WeakMap<Server, Set<ServerResponse>>();

/**
 * A response sent with `Connection: close` ends its connection (RFC 9112 §9.6), so a client that
 * keeps a connection busy, as a reverse proxy's pool does, moves to another replica instead of
 * holding the stop open until its timeout cuts the request then under way.
 */
function closeConnectionAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    for (const res of unfinished.get(server) ?? []) closeConnectionAfter(res);
    server.closeIdleConnections();
  });
}

/** Starts services that share one database and transport (all of them embedded, or one distributed). */
export async function startServices(
  definitions: { definition: Service; port: number; metricsPort?: number }[],
  shared: SharedDeps & { host: string; shutdownTimeoutMs: number },
): Promise<RunningFleet> {
  const identity = new IdentityStore(shared.db.knex);
  const prepared: { area: string; port: number; metricsPort?: number; prep: PreparedService }[] = [];
  const running: RunningService[] = [];
  // A shutdown first fails readiness, so a load balancer still polling stops sending requests,
  // then drains: the listeners close once in-flight requests are answered, then consumers stop
  // and outboxes drain (docs/architecture.md §2; the manifests' preStop delay comes before it).
  let serving = true;
  const stopAll = async () => {
    serving = false;
    // The metrics listener closes with the API's: a scrape during the drain still reads the figures.
    const servers = running.flatMap((s) => [s.server, ...(s.metricsServer ? [s.metricsServer] : [])]);
    await Promise.all(servers.map((server) => closeServer(server, shared.shutdownTimeoutMs)));
    for (const p of prepared) await p.prep.stopBackground().catch((err) => shared.logger.error({ err }, 'stop failed'));
    if (shared.transport instanceof InProcessTransport) {
      await handOver(
        prepared.map((p) => p.prep),
        shared.transport,
        shared.shutdownTimeoutMs,
        shared.logger,
      );
    }
    for (const p of prepared.reverse()) await p.prep.stop().catch((err) => shared.logger.error({ err }, 'stop failed'));
    await shared.transport?.close();
    await shared.db.close();
  };
  try {
    await migrateIdentity(shared.db);
    // Until every consumer group of the process has subscribed, the in-process bus tells no outbox
    // that a message was consumed: a group still to join may read it, and the row stays unsent
    // (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
    if (shared.transport instanceof InProcessTransport) shared.transport.awaitGroups();
    for (const { definition, port, metricsPort } of definitions) {
      const metricsApart = metricsPort !== undefined;
      prepared.push({
        area: definition.area,
        port,
        ...(metricsApart ? { metricsPort } : {}),
        prep: await prepareService(definition, { ...shared, serving: () => serving, metricsApart }, identity),
      });
    }
    // Every consumer group of the process has subscribed: the in-process bus may now drop what
    // they have all consumed (docs/decisions/0500-embedded-bus-keeps-what-is-unread.md), and its
    // outboxes mark it sent.
    if (shared.transport instanceof InProcessTransport) shared.transport.startTrimming();
    const urlOf = (server: Server) =>
      `http://${shared.host === '0.0.0.0' ? '127.0.0.1' : shared.host}:${(server.address() as AddressInfo).port}`;
    for (const { area, port, metricsPort, prep } of prepared) {
      const server = await listen(prep.app, port, shared.host);
      const service: RunningService = { area, url: urlOf(server), app: prep.app, server, deps: prep.deps };
      running.push(service);
      if (metricsPort !== undefined) {
        service.metricsServer = await listen(metricsApp(prep.app), metricsPort, shared.host);
        service.metricsUrl = urlOf(service.metricsServer);
      }
    }
    for (const { prep } of prepared) void prep.warm();
  } catch (err) {
    await stopAll().catch(() => undefined);
    throw err;
  }
  let stopping: Promise<void> | null = null;
  return { services: running, stop: () => (stopping ??= stopAll()) };
}

/** The pause of a hand-over round that found rows unsent and nothing to deliver. */
const HAND_OVER_RETRY_MS = 50;

/**
 * Before any consumer of a process on the in-process bus stops, what its areas wrote reaches
 * them (docs/decisions/0493-a-shutdown-hands-over-what-was-written.md): an outbox row is sent there
 * only once every consumer group of the process has consumed it, so a row a stopped consumer has
 * yet to take would otherwise wait for the next start
 * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md). Each outbox publishes what
 * it holds and the consumers take it, and what they wrote in turn, until no outbox has a row
 * unsent, or `timeoutMs` ends the wait (a consumer that keeps failing): what is then left is
 * reported. On Kafka the broker keeps what it was sent, and each outbox drains as its service stops.
 */
async function handOver(services: readonly PreparedService[], bus: InProcessTransport, timeoutMs: number, logger: Logger): Promise<void> {
  let unsent = 0;
  let timedOut = false;
  const rounds = async () => {
    while (!timedOut) {
      unsent = (await Promise.all(services.map((s) => s.flush()))).reduce((a, b) => a + b, 0);
      if (unsent === 0) return true;
      // Rows unsent and nothing to deliver: a publish or a mark that failed, which its relay retries.
      if (!(await bus.settle())) await delay(HAND_OVER_RETRY_MS);
    }
    return false;
  };
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([rounds(), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
  clearTimeout(timer);
  timedOut = true;
  if (!done)
    logger.warn(
      { unsent, timeoutMs },
      'stopping before every event written was consumed: a consumer of this process did not take them in time; they are published again at the next start',
    );
}

/** Ctrl-C and SIGTERM stop the fleet once, gracefully; a second signal exits at once, with that signal's status. */
export function stopOnSignals(fleet: RunningFleet, logger: Logger): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(signalExitCode(signal));
    signalled = true;
    logger.info({ signal }, 'shutting down');
    fleet.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
