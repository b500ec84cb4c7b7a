import type { ErrorRequestHandler, RequestHandler } from 'express';
import { STATUS_CODES } from 'node:http';
import { type ErrorTranslation, problemOf, type ProblemDetails } from './error-table.js';
import { NotFoundError } from './errors.js';
import { recordFault } from './logger.js';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * The one error handler: every failure leaves as problem+json (RFC 9457), its status and id from
 * the error table, never with a stack trace (docs/architecture.md §3).
 */
export function problemHandler(translations: readonly ErrorTranslation[] = []): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const problem = problemOf(err, translations);
    // A fault goes on the request's own line with its stack (requestLogging); a 503 that says
    // when to come back is expected, and that line (a warning) tells it.
    if (problem.status >= 500 && !(problem.status === 503 && res.hasHeader('Retry-After'))) recordFault(res, err);
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(problem.headers ?? {})) res.setHeader(k, v);
    res.status(problem.status).type(PROBLEM_MEDIA_TYPE);
    res.send(problemJson(problem));
  };
}

/** The problem+json body of a problem (RFC 9457 members plus `id`, `message` and `errors`). */
export function problemJson(problem: ProblemDetails): string {
  return JSON.stringify({
    type: `urn:fieldcast:problem:${problem.id}`,
    title: STATUS_CODES[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.message,
    id: problem.id,
    message: problem.message,
    ...(problem.errors ? { errors: problem.errors } : {}),
  });
}

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(new NotFoundError('route', `${req.method} ${req.path}`, `No resource at ${req.method} ${req.path}`));
};
