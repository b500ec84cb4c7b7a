import * as errors from '../src/errors.js';
import {
  BodyTooLargeError,
  ClientStatusError,
  ConflictError,
  ERROR_TABLE,
  InvalidRequestError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotAllowedError,
  NotFoundError,
  PreconditionFailedError,
  problemOf,
  ProblemError,
  RequestTooLargeError,
  UnauthorizedError,
  UnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../src/index.js';

describe('the error table', () => {
  it('has a row for every error class errors.ts exports', () => {
    const classes = Object.values(errors).filter(
      (v): v is typeof ProblemError => typeof v === 'function' && v.prototype instanceof ProblemError,
    );
    expect(classes.length).toBeGreaterThan(10);
    for (const type of classes) expect(ERROR_TABLE.filter((row) => row.type === type)).toHaveLength(1);
  });

  it.each([
    [new InvalidRequestError('unknown_cursor', 'm', [{ path: 'after', message: 'unknown event id' }]), 400, 'unknown_cursor'],
    [new UnauthorizedError('m'), 401, 'unauthorized'],
    [new NotAllowedError('app_not_allowed', 'm'), 403, 'app_not_allowed'],
    [new NotFoundError('field', 'x'), 404, 'field_does_not_exist'],
    [new MethodNotAllowedError(['POST'], 'm'), 405, 'method_not_allowed'],
    [new NotAcceptableError('m'), 406, 'not_acceptable'],
    [new ConflictError('style_name_taken', 'm'), 409, 'style_name_taken'],
    [new PreconditionFailedError('m'), 412, 'precondition_failed'],
    [new BodyTooLargeError('m'), 413, 'body_too_large'],
    [new UnsupportedMediaTypeError('unsupported_media_type', 'm'), 415, 'unsupported_media_type'],
    [new ValidationError('invalid_geometry', 'm', []), 422, 'invalid_geometry'],
    [new RequestTooLargeError('m'), 422, 'request_too_large'],
    [new UnavailableError('weather_data_missing', 'm'), 503, 'weather_data_missing'],
    [new ClientStatusError(431, 'request_header_fields_too_large', 'm'), 431, 'request_header_fields_too_large'],
  ])('%s: %i %s', (err, status, id) => {
    expect(problemOf(err)).toMatchObject({ status, id, message: err.message });
  });

  it('a missing resource says which, and the field errors travel with the problem', () => {
    expect(problemOf(new NotFoundError('field', 'abc')).message).toBe('Field abc does not exist');
    expect(problemOf(new NotFoundError('observation_set', 'abc'))).toMatchObject({
      id: 'observation_set_does_not_exist',
      message: 'Observation set abc does not exist',
    });
    expect(problemOf(new NotFoundError('app', 'abc', 'Application abc does not exist')).message).toBe('Application abc does not exist');
    expect(problemOf(new ValidationError('x', 'm', [{ path: 'a.0', message: 'bad' }])).errors).toEqual([{ path: 'a.0', message: 'bad' }]);
    expect(problemOf(new NotFoundError('field', 'abc'))).not.toHaveProperty('errors');
  });

  it('a 405 lists the methods the resource takes (RFC 9110 section 15.5.6)', () => {
    expect(problemOf(new MethodNotAllowedError(['GET', 'HEAD', 'PUT'], 'm')).headers).toEqual({ Allow: 'GET, HEAD, PUT' });
  });

  it('a 401 names the scheme it wants (RFC 9110 section 11.6.1)', () => {
    expect(problemOf(new UnauthorizedError('m')).headers).toEqual({ 'WWW-Authenticate': 'Basic realm="fieldcast", charset="UTF-8"' });
  });

  it('a 415 for a body’s coding or charset names the one sent and what to send instead (RFC 9110 section 15.5.16)', () => {
    const coding = problemOf({ type: 'encoding.unsupported', status: 415, encoding: 'x-snappy' });
    expect(coding).toMatchObject({ status: 415, id: 'unsupported_encoding' });
    expect(coding.message).toMatch(
      /^The request body's Content-Encoding "x-snappy" is not one the service decodes: send it in gzip, deflate, br/,
    );
    expect(coding.headers?.['Accept-Encoding']).toMatch(/^gzip, deflate, br(, zstd)?$/);
    expect(problemOf({ type: 'charset.unsupported', status: 415, charset: 'latin1' })).toMatchObject({
      status: 415,
      id: 'unsupported_charset',
      message: 'The request body\'s charset "latin1" is not supported: send JSON as UTF-8 (RFC 8259 section 8.1)',
    });
  });

  it('body-parser failures keep their ids; a client error known only by its status keeps it; anything else is a 500 that tells nothing', () => {
    expect(problemOf({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ status: 400, id: 'malformed_json' });
    expect(problemOf({ type: 'entity.too.large', status: 413, limit: 1024 })).toMatchObject({
      status: 413,
      id: 'body_too_large',
      message: 'The request body is larger than the limit of 1024 bytes',
    });
    expect(problemOf({ type: 'charset.unsupported' })).toMatchObject({ status: 415, id: 'unsupported_charset' });
    expect(problemOf(new Error('secret detail'))).toEqual({
      status: 500,
      id: 'internal_error',
      message: 'The server failed to handle the request',
    });
    expect(problemOf(undefined).status).toBe(500);
    expect(problemOf({ type: 'something.else', status: 400 })).toEqual({ status: 400, id: 'bad_request', message: 'Bad Request' });
    expect(problemOf(Object.assign(new Error('x'), { statusCode: 408 }))).toMatchObject({ status: 408, id: 'request_timeout' });
    expect(problemOf(Object.assign(new URIError('URI malformed'), { status: 400 }))).toMatchObject({ status: 400, id: 'malformed_path' });
    expect(problemOf(Object.assign(new Error('incorrect header check'), { status: 400, code: 'Z_DATA_ERROR' }))).toMatchObject({
      status: 400,
      id: 'malformed_body_encoding',
    });
    // A status a lower layer gives a server fault stays a 500 that tells nothing.
    expect(problemOf(Object.assign(new Error('secret'), { status: 503 }))).toMatchObject({ status: 500, id: 'internal_error' });
    expect(problemOf(Object.assign(new Error('secret'), { status: '400' })).status).toBe(500);
  });
});

describe('translations of errors the kit does not know', () => {
  class LowerLayerError extends RangeError {
    constructor(readonly code: string) {
      super('from below');
    }
  }
  const translate = (err: unknown) => (err instanceof LowerLayerError ? new InvalidRequestError(err.code, err.message) : undefined);

  it('map a lower layer’s error once, through a class of the table', () => {
    expect(problemOf(new LowerLayerError('out_of_coverage'))).toMatchObject({ status: 500, id: 'internal_error' });
    expect(problemOf(new LowerLayerError('out_of_coverage'), [translate])).toMatchObject({
      status: 400,
      id: 'out_of_coverage',
      message: 'from below',
    });
  });

  it('leave the table’s own errors and unknown ones as they are', () => {
    expect(problemOf(new NotFoundError('field', 'x'), [translate])).toMatchObject({ status: 404 });
    expect(problemOf(new Error('boom'), [translate])).toMatchObject({ status: 500 });
  });
});
