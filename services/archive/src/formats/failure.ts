import type { FieldError } from '@fieldcast/kit';

/**
 * A failed request as the archive tells it, in any of its formats: the Google JSON style's error
 * (docs/interface.md §11): an HTTP status as `code`, a message, and one item per fault with the
 * stable snake_case `reason` (the problem id every other area uses).
 */
export interface ArchiveFailure {
  code: number;
  message: string;
  errors: { reason: string; message: string; location?: string; locationType?: 'parameter' | 'path' }[];
}

const PATH_PARTS = new Set(['location', 'date', 'request', 'type', 'format']);

export function failureOf(status: number, id: string, message: string, errors?: FieldError[]): ArchiveFailure {
  const items = (errors ?? []).map((e) => ({
    reason: id,
    message: e.message,
    location: e.path,
    locationType: PATH_PARTS.has(e.path) ? ('path' as const) : ('parameter' as const),
  }));
  return { code: status, message, errors: items.length > 0 ? items : [{ reason: id, message }] };
}
