import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { migrateSchema, Outbox, outboxMigration, type Database } from '@fieldcast/db';
import type { Transport } from '@fieldcast/bus';
import type { GridSource } from '@fieldcast/weather';
import { IDENTITY_SCHEMA, identityMigrations, IdentityStore } from './identity.js';
import type { Logger } from './logger.js';
import { createServiceApp, type ServiceDefinition, type ServiceDeps } from './service.js';

export interface SharedDeps {
  db: Database;
  transport: Transport;
  logger: Logger;
  weather: GridSource;
  vendor: string;
  bodyLimit: string;
  now?: () => Date;
}

export async function migrateIdentity(db: Database): Promise<void> {
  await migrateSchema(db.knex, IDENTITY_SCHEMA, identityMigrations);
}

/** Migrates a service's schema and identity, creates its topics, starts its relay and background work. */
export async function prepareService(definition: ServiceDefinition, shared: SharedDeps, identity?: IdentityStore) {
  await migrateIdentity(shared.db);
  await migrateSchema(shared.db.knex, definition.area, [outboxMigration(), ...definition.migrations]);
  await shared.transport.ensureTopics(definition.topics);
  const logger = shared.logger.child({ service: definition.area });
  const outbox = new Outbox({ db: shared.db, schema: definition.area, transport: shared.transport, logger });
  const deps: ServiceDeps = {
    db: shared.db,
    identity: identity ?? new IdentityStore(shared.db.knex),
    transport: shared.transport,
    outbox,
    logger,
    weather: shared.weather,
    vendor: shared.vendor,
    bodyLimit: shared.bodyLimit,
    now: shared.now ?? (() => new Date()),
  };
  await outbox.start();
  const stopBackground = definition.background ? await definition.background(deps) : async () => undefined;
  return {
    deps,
    app: createServiceApp(definition, deps),
    async stop() {
      await stopBackground();
      await outbox.stop();
    },
  };
}

export interface RunningService {
  area: string;
  url: string;
  app: Express;
  server: Server;
  deps: ServiceDeps;
}

export interface RunningFleet {
  services: RunningService[];
  /** graceful: stop accepting, finish in-flight requests, stop consumers, drain outboxes, close */
  stop(): Promise<void>;
}

function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Starts services that share one database and transport (all nine embedded, or one distributed). */
export async function startServices(
  definitions: { definition: ServiceDefinition; port: number }[],
  shared: SharedDeps & { host: string; shutdownTimeoutMs: number },
): Promise<RunningFleet> {
  const identity = new IdentityStore(shared.db.knex);
  const prepared: { area: string; port: number; prep: Awaited<ReturnType<typeof prepareService>> }[] = [];
  const running: RunningService[] = [];
  const stopAll = async () => {
    await Promise.all(running.map((s) => closeServer(s.server, shared.shutdownTimeoutMs)));
    for (const p of prepared.reverse()) await p.prep.stop().catch((err) => shared.logger.error({ err }, 'stop failed'));
    await shared.transport.close();
    await shared.db.close();
  };
  try {
    for (const { definition, port } of definitions) {
      prepared.push({ area: definition.area, port, prep: await prepareService(definition, shared, identity) });
    }
    for (const { area, port, prep } of prepared) {
      const server = await listen(prep.app, port, shared.host);
      const { port: actual } = server.address() as AddressInfo;
      running.push({ area, url: `http://${shared.host === '0.0.0.0' ? '127.0.0.1' : shared.host}:${actual}`, app: prep.app, server, deps: prep.deps });
    }
  } catch (err) {
    await stopAll().catch(() => undefined);
    throw err;
  }
  let stopping: Promise<void> | null = null;
  return { services: running, stop: () => (stopping ??= stopAll()) };
}

/** Ctrl-C and SIGTERM stop the fleet once, gracefully; a second signal exits at once. */
export function stopOnSignals(fleet: RunningFleet, logger: Logger): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(130);
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
