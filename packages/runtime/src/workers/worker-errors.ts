import {
  type FieldError,
  InvalidRequestError,
  NotFoundError,
  RequestTooLargeError,
  UnavailableError,
  ValidationError,
} from '@fieldcast/kit';

/**
 * Errors cross a thread boundary as plain data (the structured clone keeps an Error's message,
 * not its class). The domain errors a computation can throw are sent with their fields and made
 * again on the other side, so the error table maps them exactly as when computed inline
 * (docs/architecture.md §3); anything else stays an unknown error, a 500.
 */
export function errorData(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const { name, message } = err;
  const fields = err as unknown as { code?: string; kind?: string; ref?: string; errors?: FieldError[] };
  return { name, message, code: fields.code, kind: fields.kind, ref: fields.ref, errors: fields.errors, stack: err.stack };
}

export function reviveError(data: Record<string, unknown>): Error {
  const message = String(data.message);
  const code = String(data.code);
  const errors = data.errors as FieldError[] | undefined;
  switch (data.name) {
    case 'InvalidRequestError':
      return new InvalidRequestError(code, message, errors);
    case 'ValidationError':
      return new ValidationError(code, message, errors);
    case 'RequestTooLargeError':
      return new RequestTooLargeError(message, errors);
    case 'UnavailableError':
      return new UnavailableError(code, message);
    case 'NotFoundError':
      return new NotFoundError(String(data.kind), String(data.ref), message);
    default: {
      // Its name and code kept: an error the runtime translates by name (weather.ts) maps as if thrown here.
      const err = Object.assign(new Error(message), typeof data.code === 'string' ? { code: data.code } : {});
      err.name = String(data.name);
      if (typeof data.stack === 'string') err.stack = data.stack;
      return err;
    }
  }
}
