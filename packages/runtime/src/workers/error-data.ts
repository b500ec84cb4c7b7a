import type { FieldError } from '@fieldcast/kit';

/**
 * Errors cross a thread boundary as plain data (the structured clone keeps an Error's message,
 * not its class). The domain errors a computation can throw are sent with their fields and made
 * again on the other side (reviveError, ./worker-errors.ts), so the error table maps them exactly
 * as when computed inline (docs/architecture.md §3); anything else stays an unknown error, a 500.
 * Types only from the kit: a compute thread loads this module, and the kit's modules (Express,
 * schemas, OpenAPI) are most of a thread's start-up when loaded for nothing.
 */
export function errorData(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const { name, message } = err;
  const fields = err as unknown as { code?: string; kind?: string; ref?: string; errors?: FieldError[] };
  return { name, message, code: fields.code, kind: fields.kind, ref: fields.ref, errors: fields.errors, stack: err.stack };
}
