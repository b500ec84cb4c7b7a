import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export function createLogger(options: { level: string; name?: string }): Logger {
  return pino({
    level: options.level,
    ...(options.name ? { name: options.name } : {}),
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Probes and scrapes, asked every few seconds by the platform: logged at debug unless they fail. */
const OPERATIONAL_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The level of a request's line: a fault is an error; a 503 that says when to come back
 * (Retry-After: a file being made, a full queue) is expected, a warning; probes are debug.
 */
function levelOf(route: unknown, status: number, retryAfter: boolean): 'debug' | 'info' | 'warn' | 'error' {
  if (status >= 500) return status === 503 && retryAfter ? 'warn' : 'error';
  return typeof route === 'string' && OPERATIONAL_ROUTES.has(route) ? 'debug' : 'info';
}

/** Echoes a well-formed X-Request-Id (or makes one) and logs each request once, when it ends. */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = levelOf(res.locals.route, res.statusCode, res.hasHeader('Retry-After'));
      logger[level](
        { requestId, method: req.method, path: req.path, route: res.locals.route, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  };
}
