export interface FieldError {
  path: string;
  message: string;
}

/**
 * A failure with an HTTP meaning. Handlers and domain code throw these; the one error handler
 * (problem-handler.ts) writes them as problem+json (DESIGN.md section 3).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** stable snake_case code, e.g. field_does_not_exist */
    readonly id: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (id: string, message: string, errors?: FieldError[]) => new ApiError(400, id, message, errors);
export const unauthorized = (message = 'Credentials are missing or invalid') =>
  new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Basic realm="fieldcast", charset="UTF-8"' });
export const forbidden = (id: string, message: string) => new ApiError(403, id, message);
export const notFound = (id: string, message: string) => new ApiError(404, id, message);
export const conflict = (id: string, message: string) => new ApiError(409, id, message);
export const unprocessable = (id: string, message: string, errors?: FieldError[]) => new ApiError(422, id, message, errors);
export const unavailable = (id: string, message: string) => new ApiError(503, id, message);
