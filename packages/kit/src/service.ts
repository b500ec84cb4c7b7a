import { isUtf8 } from 'node:buffer';
import compression from 'compression';
import cors from 'cors';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { Api, HTTP_METHODS } from './api.js';
import { basicAuth } from './auth.js';
import type { Identity } from './identity.js';
import { type IdempotencyKeeper, REPLAYED } from './idempotency.js';
import { resolveLimits, type Limits } from './limits.js';
import type { Logger } from './logger.js';
import { requestLogging } from './logger.js';
import { createMetrics, metricsEndpoint, type MetricSource } from './metrics.js';
import { negotiate, parseAccept, vendorMediaType } from './negotiate.js';
import { openApiDocument } from './openapi.js';
import type { ErrorTranslation } from './error-table.js';
import { problemHandler, unknownRoute } from './problem-handler.js';
import { requestLimiters } from './request-limits.js';
import { resourceOptions } from './resource-methods.js';
import { InvalidRequestError, NotAcceptableError } from './errors.js';
import { duplicateNames } from './duplicate-names.js';
import type { Registry } from 'prom-client';
import { anyRangeHolds, parseAddress, trustedProxyRanges } from './address-ranges.js';

/** What the HTTP layer of every service is given, whatever else the service declared it needs. */
export interface HttpDeps {
  /** accounts and keys: HTTP Basic, and lookups by id or handle */
  identity: Identity;
  /** this service's logger */
  logger: Logger;
  /** the media type vendor token (FIELDCAST_VENDOR) */
  vendor: string;
  bodyLimit: string;
  /** rates, concurrency and sizes per account (docs/operations.md "Limits"); the defaults where not given */
  limits?: Partial<Limits>;
  now: () => Date;
  /**
   * addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For a service may believe
   * (FIELDCAST_TRUSTED_PROXIES); none when not given, so the client address is the socket's
   */
  trustedProxies?: readonly string[];
  /** reachability of each dependency the service cannot answer requests without (the database), for /readyz */
  ready(): Promise<Record<string, boolean>>;
  /**
   * reachability of dependencies its requests do not wait for (the broker: changes wait in the
   * outbox), reported in /readyz's body and never failing it
   */
  reports?(): Promise<Record<string, boolean>>;
  /** figures of this service besides HTTP's, in /metrics */
  metrics?: readonly MetricSource[];
  /**
   * whether /metrics is served apart, by metricsApp(app) on a port of its own
   * (FIELDCAST_METRICS_PORT): the public app then answers it 404 like any unknown path, since a
   * NetworkPolicy filters ports, not paths (docs/decisions/0449-metrics-on-a-port-of-their-own.md)
   */
  metricsApart?: boolean;
  /**
   * where its creates keep their answers for an Idempotency-Key (packages/db IdempotencyKeys), when
   * its schema has the table; without it its creates take no key and document none
   */
  idempotency?: IdempotencyKeeper;
  /** errors of the dependencies it was given that are the request's fault, as the table's classes (error-table.ts) */
  errorTranslations?: readonly ErrorTranslation[];
}

/**
 * A service: its area, its operations, and what it needs. The kit reads only the HTTP part; the
 * vocabulary of `needs` (database, outbox, weather) and message consumers belong to the runtime that starts
 * services (packages/runtime), which hands each one the dependencies it declared and no others,
 * typed as `Deps`. So the kit stays free of databases, transports and weather.
 */
export interface ServiceDefinition<Needs = unknown, Deps extends HttpDeps = HttpDeps> {
  /** the area's name: its base address, its schema, its port (docs/architecture.md §2) */
  area: string;
  title: string;
  description: string;
  needs: Needs;
  /**
   * The service's operations, built from its dependencies; no I/O here. A service that starts
   * something with them (worker threads) returns it with how to close it (StartedApi): whoever
   * runs the service closes it when the service stops.
   */
  api(deps: Deps): Api | StartedApi;
}

/** Operations and what building them started, with how to close that. */
export interface StartedApi {
  api: Api;
  close(): Promise<void>;
  /**
   * Prepares, in the background, what a first request would otherwise wait for (indexes, compute
   * threads): called once the service serves, where its background tasks run (not in tests). It
   * may return when what it prepares is ready; it never rejects (a failure is the first request's
   * to report).
   */
  warm?(): void | Promise<void>;
}

/** Whether the body reader decodes a body of this charset as UTF-8: when it names UTF-8 or none. */
const readAsUtf8 = (charset: string | null) => charset === null || /^utf-?8$/i.test(charset);

/**
 * A JSON body read as UTF-8 must be UTF-8 (RFC 8259 section 8.1). The body reader would turn each
 * byte sequence that is not into U+FFFD without a word, so a name a logger wrote in ISO 8859-1
 * would be stored altered; it is refused as no JSON text instead. The bytes checked are the
 * content once its Content-Encoding is undone. A body that declares another Unicode charset
 * (UTF-16), which the reader decodes as declared, is not checked here
 * (docs/decisions/0427-json-bodies-are-utf-8.md).
 */
function utf8Text(_req: unknown, _res: unknown, body: Buffer, charset: string | null): void {
  if (readAsUtf8(charset) && !isUtf8(body)) {
    throw new InvalidRequestError('malformed_json', 'The request body is not valid JSON: it is not UTF-8 text (RFC 8259 section 8.1)');
  }
}

/** The bytes of each JSON body read as UTF-8, kept by the reader's verify step for the check after parsing. */
const utf8Bodies = new WeakMap<object, Buffer>();

/**
 * The JSON body reader: `express.json` with the UTF-8 check, then the refusal of an object that
 * names a member twice. RFC 7493 (I-JSON) section 2.3 says such objects MUST NOT be sent, and RFC
 * 8259 section 4 that receivers differ on them; read last-wins, one member's value would be
 * dropped without a word, so such a body is 400 invalid_body naming each duplicate's path, as a
 * body the schema refuses. The check runs once the text parsed, so a text that is no JSON stays
 * malformed_json; it reads bodies read as UTF-8, the charset RFC 8259 section 8.1 asks for
 * (docs/decisions/0509-json-objects-name-each-member-once.md).
 */
function jsonBodyReader(limit: string): RequestHandler {
  const read = express.json({
    limit,
    strict: false,
    type: ['application/json', 'application/*+json'],
    verify: (req, res, body, charset) => {
      utf8Text(req, res, body, charset);
      if (readAsUtf8(charset)) utf8Bodies.set(req, body);
    },
  });
  return (req, res, next) => {
    // RFC 9110 section 8.4.1.3: a recipient SHOULD take x-gzip to be gzip; the reader knows gzip only by its own name.
    if (req.headers['content-encoding']?.trim().toLowerCase() === 'x-gzip') req.headers['content-encoding'] = 'gzip';
    read(req, res, (err?: unknown) => {
      const body = utf8Bodies.get(req);
      utf8Bodies.delete(req);
      if (err || !body) return next(err);
      const paths = duplicateNames(body.toString('utf8'));
      if (paths.length === 0) return next();
      next(
        new InvalidRequestError(
          'invalid_body',
          'The request body is not valid: an object in it names a member twice (RFC 7493 section 2.3)',
          paths.map((path) => ({ path, message: 'this name is given more than once in its object: give each member once' })),
        ),
      );
    });
  };
}

/** Any `api` result as a StartedApi: operations that started nothing have nothing to close. */
export function startedApi(built: Api | StartedApi): StartedApi {
  return built instanceof Api ? { api: built, close: async () => undefined } : built;
}

/**
 * Response fields a browser script on another origin may read (Fetch standard, CORS): besides the
 * request id, the limits' fields, the next page of a list and where a created resource is read,
 * whether a create's answer was sent again for its Idempotency-Key, the name a CSV or file answer
 * is saved under, the entity tag a later If-Match or If-Range names (conditional.ts), and a byte
 * range's Content-Range and Accept-Ranges (RFC 9110 sections 14.3 and 14.4: a range reader such as
 * geotiff.js takes a file's size from Content-Range), none of which is safelisted.
 */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Link',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'Content-Disposition',
  'ETag',
  REPLAYED,
  'Content-Range',
  'Accept-Ranges',
];

/**
 * What a CORS preflight says the service allows: its operations' methods, HEAD, which Express
 * answers for every GET, and OPTIONS, which every resource answers (resource-methods.ts), as Allow
 * says them; not the cors package's default, which adds PATCH.
 */
const CORS_METHODS = ['HEAD', 'OPTIONS', ...HTTP_METHODS.map((m) => m.toUpperCase())];

/**
 * How long a browser may keep a preflight's answer (Access-Control-Max-Age, WHATWG Fetch): a day,
 * which browsers clamp to their own cap (Chromium two hours). Without it a preflight is kept five
 * seconds, and a page polling a feed or drawing tiles with credentials on another origin sends an
 * OPTIONS before nearly every request. What a preflight allows depends on nothing that changes
 * while a process runs (docs/decisions/0519-preflights-kept-a-day.md).
 */
const PREFLIGHT_MAX_AGE = 86_400;

/** The request as a middleware that reads only its method and header fields would see it with another method. */
const withMethod = (req: Request, method: string): Request => Object.create(req, { method: { value: method } }) as Request;

/** The content codings the compression package writes (RFC 9110 section 8.4.1), besides identity. */
const RESPONSE_CODINGS = ['br', 'gzip', 'deflate'];

/**
 * The quality an Accept-Encoding gives a coding (RFC 9110 section 12.5.3): that of the entry naming
 * it, else of `*`; a coding named by neither is not acceptable, except identity, which is unless
 * refused. No field at all takes every coding, identity first.
 */
function codingQuality(entries: readonly { type: string; q: number }[], coding: string): number {
  const entry = entries.find((e) => e.type === coding) ?? entries.find((e) => e.type === '*');
  return entry ? entry.q : coding === 'identity' ? 1 : 0;
}

/** What a request's Accept-Encoding takes: identity among others, only codings written, or none of what is written. */
function codingsTaken(req: Request): 'identity' | 'coded only' | 'none' {
  const header = req.headers['accept-encoding'];
  const entries = header === undefined ? [] : parseAccept(header);
  if (codingQuality(entries, 'identity') > 0) return 'identity';
  return RESPONSE_CODINGS.some((coding) => codingQuality(entries, coding) > 0) ? 'coded only' : 'none';
}

/**
 * The request as the compression package is to read its Accept-Encoding: each member with the
 * weight `parseAccept` reads, so the package, which drops a member whose weight it cannot read,
 * codes as `codingsTaken` decided (docs/decisions/0525-a-malformed-weight-is-no-weight.md).
 */
function withCodingsAsRead(req: Request): Request {
  const header = req.headers['accept-encoding'];
  // Only a weight can be read two ways; most clients send none.
  if (header === undefined || !/q\s*=/i.test(header)) return req;
  const written = parseAccept(header)
    .map((e) => `${e.type};q=${e.q}`)
    .join(', ');
  return Object.create(req, { headers: { value: { ...req.headers, 'accept-encoding': written } } }) as Request;
}

/**
 * Compression (RFC 9110 section 8.4) that gives HEAD the header fields it gives GET, as RFC 9110
 * section 9.3.2 asks: the compression package chooses for HEAD as for GET (Vary, the threshold)
 * and then sends it uncoded, with the identity Content-Length, where GET says Content-Encoding and
 * no Content-Length. Its choice reads only the request's method and header fields, so it is asked
 * as for GET; Node writes no body for HEAD, so the few coded bytes of an empty body go nowhere.
 * An Accept-Encoding that refuses identity (`identity;q=0`, or `*;q=0` without identity) is
 * honoured (RFC 9110 section 12.5.3): a coding it takes is sent whatever the size and type, and
 * where it takes none of them the answer is 406 (docs/decisions/0518-an-accept-encoding-refusing-identity-is-honoured.md).
 */
function compressionAlikeForHead(): RequestHandler {
  const compress = compression();
  // A client that refuses identity is sent a coding whatever the body's size and type: the
  // threshold and the type filter only spare work where identity would also do. A 204 or 304 has
  // no content to code, and names no coding (RFC 9110 section 15.4.5).
  const compressAlways = compression({ threshold: 0, filter: (_req, res) => res.statusCode !== 204 && res.statusCode !== 304 });
  return (req, res, next) => {
    const answer = codingsTaken(req) === 'coded only' ? compressAlways : compress;
    const read = withCodingsAsRead(req);
    answer(req.method === 'HEAD' ? withMethod(read, 'GET') : read, res, next);
  };
}

/**
 * 406 for an Accept-Encoding that refuses identity and takes none of the codings written
 * (compressionAlikeForHead), after the CORS and nosniff fields are set, so a page on another
 * origin can read it.
 */
const refuseUnwritableCodings: RequestHandler = (req, res, next) => {
  if (codingsTaken(req) !== 'none') return next();
  res.vary('Accept-Encoding');
  next(
    new NotAcceptableError(
      `Cannot produce a content coding ${req.headers['accept-encoding']} takes; this service writes ${RESPONSE_CODINGS.join(', ')} and identity`,
    ),
  );
};

/**
 * CORS (WHATWG Fetch, CORS protocol) whose preflight is an OPTIONS with Origin and
 * Access-Control-Request-Method: the cors package takes every OPTIONS for one and answers it 204
 * with no Allow. Any other OPTIONS is a request like the rest, answered with Allow
 * (resource-methods.ts resourceOptions) and the CORS fields of an actual answer.
 */
function corsPreflightsOnly(options: cors.CorsOptions): RequestHandler {
  const answer = cors(options);
  return (req, res, next) => {
    const preflight = req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
    answer(req.method === 'OPTIONS' && !preflight ? withMethod(req, 'GET') : req, res, next);
  };
}

/** A percent-encoded octet of an unreserved character (RFC 3986 section 2.3): a letter, a digit, `-`, `.`, `_` or `~`. */
const ENCODED_UNRESERVED = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E)/gi;

/**
 * A path that percent-encodes unreserved characters names the resource its decoded form names
 * (RFC 3986 section 6.2.2.2), as routing sees it: `/tile/2/1/1%2Epng` is `/tile/2/1/1.png`, which
 * a template's literal text (`{y}.png`, `/fields`) would otherwise not match. Reserved characters
 * stay encoded, so `%2F` is still no segment separator; the query is left as it came.
 */
const unreservedDecoded: express.RequestHandler = (req, _res, next) => {
  const query = req.url.indexOf('?');
  const path = query < 0 ? req.url : req.url.slice(0, query);
  if (path.includes('%')) {
    const decoded = path.replace(ENCODED_UNRESERVED, (octet) => String.fromCharCode(parseInt(octet.slice(1), 16)));
    if (decoded !== path) req.url = decoded + (query < 0 ? '' : req.url.slice(query));
  }
  next();
};

const varyAccept: express.RequestHandler = (_req, res, next) => {
  res.vary('Accept');
  next();
};

/** Every answer is what its Content-Type says: no browser may guess another type from the bytes (WHATWG Fetch, X-Content-Type-Options). */
const noSniff: express.RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/** Builds the Express app of one service: no I/O here (docs/architecture.md §1). */
export function createServiceApp<Deps extends HttpDeps>(definition: ServiceDefinition<unknown, Deps>, deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const trustedProxies = trustedProxyRanges(deps.trustedProxies);
  // The scheme and host a trusted reverse proxy forwards (X-Forwarded-Proto, X-Forwarded-Host) are
  // the ones a client used: behind an ingress terminating TLS, absolute links (docs/interface.md
  // §9) name its https address, not the pod's. Anyone else's forwarded headers are ignored.
  app.set('trust proxy', (address: string) => {
    const peer = parseAddress(address);
    return peer !== null && anyRangeHolds(trustedProxies, peer);
  });
  const metrics = createMetrics(definition.area, deps.metrics);
  app.use(
    unreservedDecoded,
    requestLogging(deps.logger),
    metrics.middleware,
    compressionAlikeForHead(),
    corsPreflightsOnly({ exposedHeaders: EXPOSED_HEADERS, methods: CORS_METHODS, maxAge: PREFLIGHT_MAX_AGE }),
    noSniff,
    refuseUnwritableCodings,
  );

  // Operational endpoints: no credentials, no vendor negotiation (probes and scrapers send neither).
  app.get('/healthz', (_req, res) => {
    res.locals.route = '/healthz';
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    res.locals.route = '/readyz';
    const [checks, reports] = await Promise.all([deps.ready(), deps.reports?.()]);
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks, ...(reports ? { reports } : {}) });
  });
  // metricsApp(app) reads them from here when they are served apart.
  app.locals.metrics = metrics.registry;
  if (!deps.metricsApart) app.get('/metrics', metricsEndpoint(metrics.registry));
  const { api } = startedApi(definition.api(deps));
  const document = openApiDocument({
    title: `Fieldcast ${definition.title}`,
    version: '1',
    description: definition.description,
    mediaType: vendorMediaType(deps.vendor),
    operations: api.operations,
    idempotencyKeys: deps.idempotency !== undefined,
  });
  app.get('/openapi.json', (_req, res) => {
    res.locals.route = '/openapi.json';
    res.json(document);
  });

  const router = express.Router();
  const negotiation = negotiate(deps.vendor);
  const limits = resolveLimits(deps.limits);
  // Handlers that need a limit (list pages, resources per account) read it through limitsOf(req).
  app.locals.limits = limits;
  const limiters = requestLimiters(limits, basicAuth(deps.identity), trustedProxies);
  api.mount(router, {
    negotiate: negotiation,
    vendor: deps.vendor,
    // Any JSON text (RFC 8259 §2) parses; one that is not an object, such as `null`, is valid JSON of
    // the wrong shape, answered by the operation's schema as invalid_body, not malformed_json.
    parseBody: jsonBodyReader(deps.bodyLimit),
    authenticate: limiters.authenticate,
    limitHeavy: limiters.heavy,
    ...(deps.idempotency ? { idempotency: deps.idempotency } : {}),
  });
  app.use(resourceOptions(api.operations), router);
  // An unknown path is negotiated too: a client asking for another version hears 406 first, so
  // its 404 or 406 varies with Accept (RFC 9110 section 12.5.5).
  app.use(varyAccept, negotiation, unknownRoute);
  app.use(problemHandler(deps.errorTranslations));
  return app;
}

/**
 * The app answering GET /metrics alone with a service app's figures, for a port of its own
 * (HttpDeps.metricsApart); every other path is 404. Its scrapes are not counted among the
 * service's requests.
 */
export function metricsApp(serviceApp: Express): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/metrics', metricsEndpoint(serviceApp.locals.metrics as Registry));
  app.use(unknownRoute);
  app.use(problemHandler());
  return app;
}
