import { z } from 'zod';
import { polygonFaults } from '@fieldcast/geo';

const Position = z.array(z.number()).min(2).max(3);
const PolygonCoordinates = z.array(z.array(Position));

/** A GeoJSON Polygon as submitted, checked for ring size, closure, range and self-intersection. */
export const PolygonInput = z
  .object({ type: z.literal('Polygon', { error: 'each geometry must be a Polygon' }), coordinates: PolygonCoordinates })
  .superRefine((polygon, ctx) => {
    for (const fault of polygonFaults(polygon.coordinates)) {
      ctx.addIssue({ code: 'custom', path: ['coordinates', ...fault.path], message: fault.message });
    }
  })
  .meta({ id: 'PolygonInput' });

export const MultiPolygon = z
  .object({ type: z.literal('MultiPolygon'), coordinates: z.array(PolygonCoordinates) })
  .meta({ id: 'MultiPolygon' });
export type MultiPolygon = z.infer<typeof MultiPolygon>;
