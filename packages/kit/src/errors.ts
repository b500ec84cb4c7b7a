/** One fault of a request, by the dotted path of the member at fault (problem body `errors`). */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * A failure the caller is told about. These classes carry no HTTP: domain code and stores throw
 * them, and the one error table (error-table.ts) gives each class its status and problem id, so
 * a status is decided in one place (docs/architecture.md §3).
 */
export abstract class ProblemError extends Error {
  constructor(
    message: string,
    /** the request's faults by member, when it has them */
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A snake_case kind as words, the first capitalised: `observation_set` is "Observation set". */
const capitalised = (kind: string) => (kind.charAt(0).toUpperCase() + kind.slice(1)).replaceAll('_', ' ');

/**
 * A resource that does not exist, or that belongs to another account: both read the same, so a
 * caller cannot learn that someone else's id exists (docs/interface.md, ownership).
 * Problem id `<kind>_does_not_exist`.
 */
export class NotFoundError extends ProblemError {
  constructor(
    /** snake_case kind of resource, e.g. `field` */
    readonly kind: string,
    /** the id or name the caller asked for */
    readonly ref: string,
    message = `${capitalised(kind)} ${ref} does not exist`,
    /** which parts of the request name nothing, where a part of a path is at fault */
    errors?: FieldError[],
  ) {
    super(message, errors);
  }
}

/**
 * A request whose parameters are malformed, or well-formed but naming nothing that can be
 * answered (an unknown cursor, a time outside the data): the request itself is at fault.
 */
export class InvalidRequestError extends ProblemError {
  constructor(
    /** stable snake_case problem id, e.g. `unknown_cursor` */
    readonly code: string,
    message: string,
    errors?: FieldError[],
  ) {
    super(message, errors);
  }
}

/** A well-formed body whose content the rules refuse (a bad geometry, a message that does not fit its tags). */
export class ValidationError extends ProblemError {
  constructor(
    /** stable snake_case problem id, e.g. `invalid_geometry` */
    readonly code: string,
    message: string,
    errors?: FieldError[],
  ) {
    super(message, errors);
  }
}

/** A request for more work than the endpoint states it will do, refused before any of it is done (docs/architecture.md §3, limits). */
export class RequestTooLargeError extends ProblemError {
  /**
   * The one work check: refuses `work` over `spec.limit` before any of it is done, saying what
   * the work is counted in and how to ask for less, e.g. "This request needs 30,000,000 cell-days
   * (grid cells x days); the limit is 25,000,000. Ask for fewer days or a smaller field."
   */
  static refuseOver(work: number, spec: { limit: number; subject: string; unit: string; meaning: string; advice: string }): void {
    if (work <= spec.limit) return;
    const n = (x: number) => x.toLocaleString('en');
    throw new RequestTooLargeError(
      `This ${spec.subject} needs ${n(work)} ${spec.unit} (${spec.meaning}); the limit is ${n(spec.limit)}. ${spec.advice}`,
    );
  }
}

/** A caller over one of its limits of rate or concurrency (docs/architecture.md §3, limits; RFC 6585 section 4). */
export class TooManyRequestsError extends ProblemError {
  constructor(
    /** stable snake_case problem id, e.g. `too_many_requests` */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A change that clashes with what exists, e.g. a duplicate name. */
export class ConflictError extends ProblemError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A request whose If-Match names no current version of the resource (RFC 9110 section 13.1.1):
 * the resource changed since the caller read it, so the change it asks for is not made.
 */
export class PreconditionFailedError extends ProblemError {}

/** The caller is known but may not do this. */
export class NotAllowedError extends ProblemError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The path names a resource, but not one that takes this method (RFC 9110 section 15.5.6). */
export class MethodNotAllowedError extends ProblemError {
  constructor(
    /** the methods the resource takes, for the Allow header */
    readonly allowed: readonly string[],
    message: string,
  ) {
    super(message);
  }
}

/** What the answer needs is missing on the server's side for now (e.g. weather data); the request may succeed later. */
export class UnavailableError extends ProblemError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// Failures of the HTTP exchange itself, raised by the kit's request pipeline rather than by domain code.

/** No credentials, or credentials that do not authenticate. */
export class UnauthorizedError extends ProblemError {}

/** The Accept header asks for nothing this API serves. */
export class NotAcceptableError extends ProblemError {}

/** A request body in a media type, encoding or charset the operation does not read. */
export class UnsupportedMediaTypeError extends ProblemError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A request body over the byte limit of the JSON parser. */
export class BodyTooLargeError extends ProblemError {}

/**
 * A client error that a lower layer (Node's HTTP parser, the router, the body reader) raised with
 * its own 4xx status and no class of ours: the request stays a client error (RFC 9110 section
 * 15.5), never a 500.
 */
export class ClientStatusError extends ProblemError {
  constructor(
    /** the 4xx status the lower layer chose */
    readonly status: number,
    /** stable snake_case problem id, e.g. `request_header_fields_too_large` */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const unauthorized = (message = 'Credentials are missing or invalid') => new UnauthorizedError(message);
