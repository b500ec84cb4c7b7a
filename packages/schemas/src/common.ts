import { z } from 'zod';

/** Resource ids: UUIDs (v4 for created resources, v5 for derived records; docs/architecture.md §3). */
export const Uuid = z.uuid({ error: 'must be a UUID' });

/**
 * A UUID a caller sends (path, query, body), in its canonical lower-case form: RFC 9562 section 4
 * reads UUIDs case-insensitively and writes them in lower case, so an id in upper case names the
 * same resource, and caches and comparisons see one spelling.
 */
export const UuidInput = Uuid.toLowerCase();

export const IdParams = z.object({ id: UuidInput });

/** ISO 8601 UTC timestamp with `Z` (docs/architecture.md §3). */
export const Timestamp = z.iso.datetime({ error: 'must be an ISO 8601 UTC timestamp such as 2026-05-01T12:00:00Z' });

export const LatLon = z.object({ latitude: z.number(), longitude: z.number() });
