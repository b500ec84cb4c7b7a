import { STATUS_CODES } from 'node:http';
import * as zlib from 'node:zlib';
import {
  BodyTooLargeError,
  ClientStatusError,
  ConflictError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotAllowedError,
  NotFoundError,
  PreconditionFailedError,
  type ProblemError,
  RequestTooLargeError,
  TooManyRequestsError,
  UnauthorizedError,
  UnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
  type FieldError,
} from './errors.js';

/** What the problem handler writes for a failure (RFC 9457 problem details plus `id` and `errors`). */
export interface ProblemDetails {
  status: number;
  /** stable snake_case code, e.g. field_does_not_exist */
  id: string;
  message: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass<E extends ProblemError> = abstract new (...args: any[]) => E;

interface Row<E extends ProblemError> {
  type: ErrorClass<E>;
  /** fixed for a class, or read from the error for the one class whose status a lower layer chose */
  status: number | ((err: E) => number);
  id: (err: E) => string;
  headers?: Record<string, string> | ((err: E) => Record<string, string>);
}

const row = <E extends ProblemError>(
  type: ErrorClass<E>,
  status: number | ((err: E) => number),
  id: string | ((err: E) => string),
  headers?: Row<E>['headers'],
): Row<E> => ({
  type,
  status,
  id: typeof id === 'string' ? () => id : id,
  ...(headers ? { headers } : {}),
});

const UNSUPPORTED_ENCODING = 'unsupported_encoding';
/** The content codings the body reader (body-parser) undoes: zstd only where the runtime's zlib has it, as body-parser checks. */
const BODY_CODINGS = ['gzip', 'deflate', 'br', ...('createZstdDecompress' in zlib ? ['zstd'] : [])];

/**
 * Every error class a request can fail with, and its status and problem id (docs/architecture.md
 * §3: 400 bad parameter, 401, 403, 404 also for another account's resource, 405, 406, 409, 412, 413,
 * 415, 422 semantically invalid body or too much work, 429, 503). The one place a status is chosen.
 */
export const ERROR_TABLE: readonly Row<ProblemError>[] = [
  row(InvalidRequestError, 400, (e) => e.code),
  // RFC 9110 section 11.6.1: a 401 names the scheme it wants.
  row(UnauthorizedError, 401, 'unauthorized', { 'WWW-Authenticate': 'Basic realm="fieldcast", charset="UTF-8"' }),
  row(NotAllowedError, 403, (e) => e.code),
  row(NotFoundError, 404, (e) => `${e.kind}_does_not_exist`),
  // RFC 9110 section 15.5.6: a 405 lists the methods the resource does take.
  row(MethodNotAllowedError, 405, 'method_not_allowed', (e) => ({ Allow: e.allowed.join(', ') })),
  row(NotAcceptableError, 406, 'not_acceptable'),
  row(ConflictError, 409, (e) => e.code),
  row(PreconditionFailedError, 412, 'precondition_failed'),
  row(BodyTooLargeError, 413, 'body_too_large'),
  // RFC 9110 section 15.5.16: a 415 for a content coding says which codings would have been accepted.
  row(
    UnsupportedMediaTypeError,
    415,
    (e) => e.code,
    (e): Record<string, string> => (e.code === UNSUPPORTED_ENCODING ? { 'Accept-Encoding': BODY_CODINGS.join(', ') } : {}),
  ),
  row(ValidationError, 422, (e) => e.code),
  row(RequestTooLargeError, 422, 'request_too_large'),
  // Retry-After and the RateLimit fields are set by the limiter that refused (request-limits.ts).
  row(TooManyRequestsError, 429, (e) => e.code),
  row(UnavailableError, 503, (e) => e.code),
  row(
    ClientStatusError,
    (e) => e.status,
    (e) => e.code,
  ),
] as Row<ProblemError>[];

/**
 * Failures of body-parser and raw-body, recognised by their `type`, as the errors the table knows;
 * a refused coding or charset is named with what to send instead. Anything else unknown is a 500
 * that says nothing of its cause.
 */
const BODY_PARSER_ERRORS: Record<string, (err: { limit?: number; encoding?: unknown; charset?: unknown }) => ProblemError> = {
  'entity.parse.failed': () => new InvalidRequestError('malformed_json', 'The request body is not valid JSON'),
  'entity.too.large': (err) => new BodyTooLargeError(`The request body is larger than the limit of ${err.limit} bytes`),
  'encoding.unsupported': (err) =>
    new UnsupportedMediaTypeError(
      UNSUPPORTED_ENCODING,
      `The request body's Content-Encoding ${JSON.stringify(String(err.encoding ?? ''))} is not one the service decodes: send it in ${BODY_CODINGS.join(', ')} or without a Content-Encoding`,
    ),
  'charset.unsupported': (err) =>
    new UnsupportedMediaTypeError(
      'unsupported_charset',
      `The request body's charset ${JSON.stringify(String(err.charset ?? ''))} is not supported: send JSON as UTF-8 (RFC 8259 section 8.1)`,
    ),
  'request.aborted': () => new InvalidRequestError('request_aborted', 'The request was aborted'),
};

/** `Bad Request` -> `bad_request`: the problem id of a client error known only by its status. */
const statusId = (status: number) => (STATUS_CODES[status] ?? 'client_error').toLowerCase().replace(/[^a-z0-9]+/g, '_');

/**
 * Any other thrown value that carries a 4xx `status` or `statusCode` (http-errors, Node's HTTP
 * parser, zlib under the body reader) is the request's fault, whatever raised it: it keeps its
 * status (RFC 9110 section 15.5). A path segment whose percent-encoding is not UTF-8 (RFC 3986
 * section 2.1), and a body that does not decode in its Content-Encoding, get ids of their own.
 */
function clientErrorOf(thrown: unknown): ProblemError | undefined {
  if (thrown === null || typeof thrown !== 'object') return undefined;
  const { status, statusCode } = thrown as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 400 || code > 499) return undefined;
  if (thrown instanceof URIError)
    return new InvalidRequestError('malformed_path', 'A path segment is not valid percent-encoded UTF-8 (RFC 3986 section 2.1)');
  const cause = (thrown as { code?: unknown }).code;
  // zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR) and Brotli's decoder errors, which Node names
  // ERR_ and the decoder's name without BROTLI_DECODER (ERR__ERROR_FORMAT_PADDING_2)
  // (docs/decisions/0427-json-bodies-are-utf-8.md).
  if (typeof cause === 'string' && /^(Z_|ERR__ERROR_)/.test(cause))
    return new InvalidRequestError('malformed_body_encoding', 'The request body does not decode in its Content-Encoding');
  return new ClientStatusError(code, statusId(code), STATUS_CODES[code] ?? 'The request cannot be handled');
}

const INTERNAL_PROBLEM: ProblemDetails = { status: 500, id: 'internal_error', message: 'The server failed to handle the request' };

function tableRowOf(err: unknown): Row<ProblemError> | undefined {
  return ERROR_TABLE.find((r) => err instanceof r.type);
}

/**
 * Turns an error of a lower layer the kit does not know (the weather's GridRequestError) into one
 * of the table's classes, or says undefined. The runtime hands each service the translations of
 * what it declared (HttpDeps.errorTranslations), so such an error is mapped in one place.
 */
export type ErrorTranslation = (thrown: unknown) => ProblemError | undefined;

/** The problem a thrown value is answered with, after the translations given. */
export function problemOf(thrown: unknown, translations: readonly ErrorTranslation[] = []): ProblemDetails {
  let err = thrown;
  for (const translate of translations) err = tableRowOf(err) ? err : (translate(err) ?? err);
  const parserType = (thrown as { type?: unknown } | null)?.type;
  if (!tableRowOf(err) && typeof parserType === 'string' && BODY_PARSER_ERRORS[parserType]) {
    err = BODY_PARSER_ERRORS[parserType]!(thrown as { limit?: number });
  }
  if (!tableRowOf(err)) err = clientErrorOf(thrown) ?? err;
  const found = tableRowOf(err);
  if (!found) return INTERNAL_PROBLEM;
  const problem = err as ProblemError;
  return {
    status: typeof found.status === 'number' ? found.status : found.status(problem),
    id: found.id(problem),
    message: problem.message,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...(found.headers ? { headers: typeof found.headers === 'function' ? found.headers(problem) : found.headers } : {}),
  };
}
