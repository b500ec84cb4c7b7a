import { z } from 'zod';
import { LatLon, Uuid } from './common.js';
import { MultiPolygon, PolygonInput } from './geojson.js';

/** Body of POST /fields and PUT /fields/{id} (spec 2.1, 4.2). */
export const FieldInput = z
  .object({
    description: z.string().max(10_000).default(''),
    type: z.literal('GeometryCollection', { error: 'type must be GeometryCollection' }),
    geometries: z.array(PolygonInput).min(1, { error: 'geometries needs at least one Polygon' }).max(1000),
  })
  .meta({ id: 'FieldInput' });
export type FieldInput = z.infer<typeof FieldInput>;

/** Body paths whose faults are geometry faults: 422 invalid_geometry rather than 400. */
export const FIELD_GEOMETRY_PATHS = ['type', 'geometries'];

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
