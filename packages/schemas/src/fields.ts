import { z } from 'zod';
import { polygonOverlapFaults } from '@fieldcast/geo';
import { LatLon, Uuid } from './common.js';
import { AMES_SQUARE, MultiPolygon, PolygonInput } from './geojson.js';
import { text } from './text.js';

/**
 * Most positions in one field, over all its polygons and rings (closing positions included). The
 * spec sets no limit (interface.md section 8 is silent on fields); surveyed field boundaries have
 * hundreds to a few thousand positions, so this is never reached by a real field, and it bounds
 * the time of the geometry checks (about n log n, bench/geometry.bench.ts) for any body.
 * docs/decisions/0033-field-geometry-rules.md.
 */
export const MAX_FIELD_POSITIONS = 20_000;

/** Positions in a body's geometries, whatever its shape (it is counted before it is parsed). */
function positionCount(geometries: unknown): number {
  let count = 0;
  if (!Array.isArray(geometries)) return 0;
  for (const g of geometries) {
    const rings = (g as { coordinates?: unknown } | null)?.coordinates;
    if (Array.isArray(rings)) for (const ring of rings) if (Array.isArray(ring)) count += ring.length;
  }
  return count;
}

/**
 * The geometries, counted before any polygon is checked: a body over MAX_FIELD_POSITIONS gets
 * one fault at `geometries` (422 invalid_geometry, docs/architecture.md §3: a semantically invalid
 * body, like an area over the limit; 413 stays for bodies over the byte limit) and no check runs.
 * A preprocess step stops the pipe on its issue (zod 4) and keeps the OpenAPI schema of the array.
 */
const GEOMETRIES = 'geometries must be an array of 1 to 1,000 Polygons';
const Geometries = z.preprocess(
  (geometries, ctx) => {
    const count = positionCount(geometries);
    if (count > MAX_FIELD_POSITIONS) {
      ctx.addIssue({
        code: 'custom',
        input: geometries,
        message: `a field has at most ${MAX_FIELD_POSITIONS.toLocaleString('en')} positions over all its polygons; got ${count.toLocaleString('en')}`,
      });
    }
    return geometries;
  },
  z
    .array(PolygonInput, { error: GEOMETRIES })
    .min(1, { error: 'geometries needs at least one Polygon' })
    .max(1000, { error: GEOMETRIES })
    .meta({
      description: `1 to 1,000 Polygons, at most ${MAX_FIELD_POSITIONS.toLocaleString('en')} positions over all of them; they may touch but not overlap`,
    }),
);

const DESCRIPTION = 'description must be text of at most 10,000 characters';

/** Body of POST /fields and PUT /fields/{id} (spec 2.1, 4.2). */
export const FieldInput = z
  .object({
    description: text({ error: DESCRIPTION }).max(10_000, { error: DESCRIPTION }).default(''),
    type: z.literal('GeometryCollection', { error: 'type must be GeometryCollection' }),
    geometries: Geometries,
  })
  .superRefine(
    (field, ctx) => {
      for (const fault of polygonOverlapFaults(field.geometries.map((g) => g.coordinates))) {
        ctx.addIssue({ code: 'custom', path: ['geometries', ...fault.path], message: fault.message });
      }
    },
    // Overlap is only asked of polygons that are valid one by one (their faults are reported first).
    { when: (payload) => payload.issues.length === 0 },
  )
  .meta({
    id: 'FieldInput',
    examples: [{ description: 'North 40', type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [AMES_SQUARE] }] }],
  });
export type FieldInput = z.infer<typeof FieldInput>;

export const Field = z
  .object({
    id: Uuid,
    description: z.string(),
    type: z.literal('GeometryCollection'),
    geometries: z.array(MultiPolygon),
    centroid: LatLon,
  })
  .meta({ id: 'Field' });
export type Field = z.infer<typeof Field>;
