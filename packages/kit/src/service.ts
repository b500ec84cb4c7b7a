import compression from 'compression';
import cors from 'cors';
import express, { type Express } from 'express';
import type { Database, Migration, Outbox } from '@fieldcast/db';
import type { Transport } from '@fieldcast/bus';
import type { GridSource } from '@fieldcast/weather';
import type { Api } from './api.js';
import { basicAuth } from './auth.js';
import type { IdentityStore } from './identity.js';
import type { Logger } from './logger.js';
import { requestLogging } from './logger.js';
import { createMetrics } from './metrics.js';
import { negotiate, vendorMediaType } from './negotiate.js';
import { openApiDocument } from './openapi.js';
import { problemHandler, unknownRoute } from './problem-handler.js';

/** What every service is built from; tests build the same with PGlite and the in-process bus. */
export interface ServiceDeps {
  db: Database;
  identity: IdentityStore;
  transport: Transport;
  /** the outbox of this service's schema */
  outbox: Outbox;
  logger: Logger;
  /** gridded weather behind every value an area computes (DESIGN.md section 6) */
  weather: GridSource;
  vendor: string;
  bodyLimit: string;
  now: () => Date;
}

/** A service as the runtime sees it: its schema, migrations, topics, routes and background work. */
export interface ServiceDefinition {
  area: string;
  title: string;
  description: string;
  migrations: Migration[];
  /** topics this service publishes to, created up front */
  topics: string[];
  api(deps: ServiceDeps): Api;
  /** background work such as consumers; resolves to a function that stops it */
  background?(deps: ServiceDeps): Promise<() => Promise<void>>;
}

/** Builds the Express app of one service: no I/O here (DESIGN.md section 1). */
export function createServiceApp(definition: ServiceDefinition, deps: ServiceDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const metrics = createMetrics(definition.area);
  app.use(requestLogging(deps.logger), metrics.middleware, compression(), cors({ exposedHeaders: ['X-Request-Id'] }));

  // Operational endpoints: no credentials, no vendor negotiation (probes and scrapers send neither).
  app.get('/healthz', (_req, res) => {
    res.locals.route = '/healthz';
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    res.locals.route = '/readyz';
    const [database, transport] = await Promise.all([deps.db.ping(), deps.transport.ready()]);
    res.status(database && transport ? 200 : 503).json({ status: database && transport ? 'ready' : 'unavailable', checks: { database, transport } });
  });
  app.get('/metrics', async (_req, res) => {
    res.locals.route = '/metrics';
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  const api = definition.api(deps);
  const document = openApiDocument({
    title: `Fieldcast ${definition.title}`,
    version: '1',
    description: definition.description,
    mediaType: vendorMediaType(deps.vendor),
    operations: api.operations,
  });
  app.get('/openapi.json', (_req, res) => {
    res.locals.route = '/openapi.json';
    res.json(document);
  });

  const router = express.Router();
  const negotiation = negotiate(deps.vendor);
  api.mount(router, {
    negotiate: negotiation,
    parseBody: express.json({ limit: deps.bodyLimit, strict: true, type: ['application/json', 'application/*+json'] }),
    authenticate: basicAuth(deps.identity),
  });
  app.use(router);
  // An unknown path is negotiated too: a client asking for another version hears 406 first.
  app.use(negotiation, unknownRoute);
  app.use(problemHandler(deps.logger));
  return app;
}
