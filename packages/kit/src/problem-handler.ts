import type { ErrorRequestHandler, RequestHandler } from 'express';
import { STATUS_CODES } from 'node:http';
import { ApiError, notFound } from './errors.js';
import type { Logger } from './logger.js';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** body-parser and raw-body errors carry `type` and `status`; map them to our stable ids. */
const BODY_ERRORS: Record<string, (err: { message: string; limit?: number }) => ApiError> = {
  'entity.parse.failed': () => new ApiError(400, 'malformed_json', 'The request body is not valid JSON'),
  'entity.too.large': (err) => new ApiError(413, 'body_too_large', `The request body is larger than the limit of ${err.limit} bytes`),
  'encoding.unsupported': () => new ApiError(415, 'unsupported_encoding', 'The request body encoding is not supported'),
  'charset.unsupported': () => new ApiError(415, 'unsupported_charset', 'The request body charset is not supported'),
  'request.aborted': () => new ApiError(400, 'request_aborted', 'The request was aborted'),
};

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { type?: string; status?: number; message?: string; limit?: number };
  if (e && typeof e.type === 'string' && BODY_ERRORS[e.type]) return BODY_ERRORS[e.type]!({ message: e.message ?? '', limit: e.limit });
  return new ApiError(500, 'internal_error', 'The server failed to handle the request');
}

/** The one error handler: every failure leaves as problem+json, never with a stack trace. */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const problem = toApiError(err);
    if (problem.status >= 500) logger.error({ err, requestId: res.locals.requestId, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(problem.headers ?? {})) res.setHeader(k, v);
    res.status(problem.status).type(PROBLEM_MEDIA_TYPE);
    res.send(
      JSON.stringify({
        type: `urn:fieldcast:problem:${problem.id}`,
        title: STATUS_CODES[problem.status] ?? 'Error',
        status: problem.status,
        detail: problem.message,
        id: problem.id,
        message: problem.message,
        ...(problem.errors ? { errors: problem.errors } : {}),
      }),
    );
  };
}

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(notFound('route_does_not_exist', `No resource at ${req.method} ${req.path}`));
};
