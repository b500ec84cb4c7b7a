import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { type DestinationStream, pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** The most characters of one member of a logged error (its message, its stack, a driver's detail). */
const ERROR_MEMBER_CHARS = 8192;

/**
 * An error as a log line holds it: pino's serialization, each member bounded. A failed statement's
 * error carries its SQL and bound values, megabytes for a large insert, and a line that size
 * floods a log pipeline for one fault.
 */
function boundedError(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(pino.stdSerializers.err(err))) {
    const text = typeof value === 'string' ? value : value === undefined ? undefined : JSON.stringify(value);
    if (text === undefined || text.length <= ERROR_MEMBER_CHARS) out[key] = value;
    else out[key] = `${text.slice(0, ERROR_MEMBER_CHARS)}... (${text.length - ERROR_MEMBER_CHARS} more characters)`;
  }
  return out;
}

export function createLogger(options: { level: string; name?: string }, destination?: DestinationStream): Logger {
  const settings = {
    level: options.level,
    ...(options.name ? { name: options.name } : {}),
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: boundedError },
  };
  return destination ? pino(settings, destination) : pino(settings);
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

/**
 * Hands a request's fault (the error behind a 5xx that is no expected 503) to its request line,
 * so a fault is one line: the request's fields, its request id and the error with its stack.
 */
export function recordFault(res: Response, err: unknown): void {
  res.locals.fault = err;
}

/**
 * Echoes a well-formed X-Request-Id (or makes one) and logs each request once, when it ends; one
 * whose connection closed before its answer was sent is logged only if it had a fault, so no
 * fault goes unlogged.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    let logged = false;
    const log = () => {
      logged = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const fault: unknown = res.locals.fault;
      const level = fault === undefined ? levelOf(res.locals.route, res.statusCode, res.hasHeader('Retry-After')) : 'error';
      logger[level](
        {
          requestId,
          method: req.method,
          path: req.path,
          route: res.locals.route,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          ...(fault === undefined ? {} : { err: fault }),
        },
        fault === undefined ? 'request' : 'request failed',
      );
    };
    res.on('finish', log);
    res.on('close', () => {
      if (!logged && res.locals.fault !== undefined) log();
    });
    next();
  };
}
