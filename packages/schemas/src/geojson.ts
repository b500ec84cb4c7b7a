import { z } from 'zod';
import { polygonFaults } from '@fieldcast/geo';

const Position = z.array(z.number()).min(2).max(3);
const PolygonCoordinates = z.array(z.array(Position));

/** A square of about 100 ha near Ames, Iowa: the documents' example ring. */
export const AMES_SQUARE: readonly (readonly [number, number])[] = [
  [-93.5, 42],
  [-93.488, 42],
  [-93.488, 42.009],
  [-93.5, 42.009],
  [-93.5, 42],
];

/** A GeoJSON Polygon as submitted, checked for ring size, closure, range and self-intersection. */
export const PolygonInput = z
  .object({ type: z.literal('Polygon', { error: 'each geometry must be a Polygon' }), coordinates: PolygonCoordinates })
  .superRefine((polygon, ctx) => {
    for (const fault of polygonFaults(polygon.coordinates)) {
      ctx.addIssue({ code: 'custom', path: ['coordinates', ...fault.path], message: fault.message });
    }
  })
  .meta({
    id: 'PolygonInput',
    // about 100 ha near Ames, Iowa: one closed ring, counter-clockwise (RFC 7946 section 3.1.6)
    examples: [{ type: 'Polygon', coordinates: [AMES_SQUARE] }],
  });

export const MultiPolygon = z
  .object({ type: z.literal('MultiPolygon'), coordinates: z.array(PolygonCoordinates) })
  .meta({ id: 'MultiPolygon' });
export type MultiPolygon = z.infer<typeof MultiPolygon>;
