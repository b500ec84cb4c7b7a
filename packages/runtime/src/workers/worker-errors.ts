import {
  type FieldError,
  InvalidRequestError,
  NotFoundError,
  RequestTooLargeError,
  UnavailableError,
  ValidationError,
} from '@fieldcast/kit';

/** The error posted by a thread (errorData, ./error-data.ts) made again as the error it was. */
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
