import { z } from 'zod';
import { UuidInput } from './common.js';

/**
 * Many places in one request (beyond the spec; docs/decisions/0242-batch-requests.md): the body of
 * every POST .../batch endpoint, its entries and the envelope of its answer.
 */

/** Most entries of one batch. */
export const MAX_BATCH_LOCATIONS = 1000;

/** One entry of a batch: a point, or the id of a resource the caller owns (a field or an asset). */
export type BatchLocation = { longitude: number; latitude: number } | { id: string };

const ENTRY = 'must be [longitude, latitude] in decimal degrees (longitude -180..180, latitude -90..90) or the id (a UUID) of one of your';

/**
 * The entry's two forms as JSON Schema, for /openapi.json: the schema itself takes any entry, so
 * that each invalid one is named by its index (entryOf).
 */
const ENTRY_FORMS = [
  {
    type: 'array',
    prefixItems: [
      { type: 'number', minimum: -180, maximum: 180, description: 'longitude' },
      { type: 'number', minimum: -90, maximum: 90, description: 'latitude' },
    ],
    minItems: 2,
    maxItems: 2,
  },
  { type: 'string', format: 'uuid' },
];

function entryOf(value: unknown): BatchLocation | undefined {
  if (Array.isArray(value)) {
    const [longitude, latitude] = value as unknown[];
    const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
    if (value.length !== 2 || !isNumber(longitude) || !isNumber(latitude)) return undefined;
    return Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90 ? { longitude, latitude } : undefined;
  }
  const id = UuidInput.safeParse(value);
  return id.success ? { id: id.data } : undefined;
}

/**
 * The body of a batch: `locations`, an array of [longitude, latitude] points (GeoJSON order, RFC
 * 7946 section 3.1.1) or ids of the caller's `resource`s. Each invalid entry is named by its
 * index (`locations.3`); the count is checked by the handler (422 request_too_large, as work is).
 */
export function batchBody(resource: 'field' | 'asset') {
  const message = `${ENTRY} ${resource}s`;
  return z.object({
    locations: z
      .array(z.unknown().meta({ description: `[longitude, latitude] or the id of one of your ${resource}s`, oneOf: ENTRY_FORMS }), {
        error: `locations must be an array of up to ${MAX_BATCH_LOCATIONS.toLocaleString('en')} entries`,
      })
      .min(1, { error: 'locations must hold at least one entry' })
      .transform((entries, ctx) =>
        entries.map((entry, i) => {
          const location = entryOf(entry);
          if (!location) ctx.issues.push({ code: 'custom', path: [i], message: `locations[${i}] ${message}`, input: entry });
          return location!;
        }),
      )
      .meta({
        description: `Up to ${MAX_BATCH_LOCATIONS.toLocaleString('en')} entries, each [longitude, latitude] (decimal degrees) or the id of one of your ${resource}s; answered in this order`,
        maxItems: MAX_BATCH_LOCATIONS,
        examples: [
          [
            [-93.6319, 42.0308],
            [-121.74, 38.54],
          ],
        ],
      }),
  });
}

/** The answer of a batch: one result per entry (a point's or a resource's result), in the order of the request's locations. */
export function batchResult<P extends z.ZodType, R extends z.ZodType>(point: P, resource: R, id: string) {
  return z
    .object({
      results: z
        .array((resource as z.ZodType) === point ? point : z.union([point, resource]))
        .meta({ description: 'one result per entry of locations, in the same order' }),
    })
    .meta({ id });
}
