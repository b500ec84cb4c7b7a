import { z } from 'zod';
import { polygonFaults } from '@fieldcast/geo';

/** polygonFaults' words for a position, used for every fault of one (RFC 7946 section 3.1.1). */
const POSITION = 'a position is [longitude, latitude]';
const Position = z
  .array(z.number({ error: POSITION }), { error: POSITION })
  .min(2, { error: POSITION })
  .max(3, { error: POSITION });
const PolygonCoordinates = z.array(z.array(Position, { error: 'a linear ring is an array of positions [longitude, latitude]' }), {
  error: "a Polygon's coordinates are an array of linear rings, each an array of positions [longitude, latitude]",
});
const POLYGON = 'each geometry must be a Polygon';

/** A square of about 100 ha near Ames, Iowa: the documents' example ring. */
export const AMES_SQUARE: readonly (readonly [number, number])[] = [
  [-93.5, 42],
  [-93.488, 42],
  [-93.488, 42.009],
  [-93.5, 42.009],
  [-93.5, 42],
];

/**
 * A GeoJSON Polygon as submitted, checked for ring size, closure, range and self-intersection.
 * Its type is checked first: another geometry (a Point, a MultiPolygon) gets the one fault that
 * it is not a Polygon, not faults of its coordinates read as a Polygon's (a preprocess step stops
 * the pipe on its issue). The polygon checks run on coordinates of the right shape only, so a
 * position gets one fault, the shape's. `antimeridian` is what a polygon across ±180 is told to
 * be sent as instead (polygonFaults; by default, cut in two Polygons).
 */
export const polygonInput = (antimeridian?: string) =>
  z.preprocess(
    (geometry, ctx) => {
      if (
        typeof geometry === 'object' &&
        geometry !== null &&
        !Array.isArray(geometry) &&
        (geometry as { type?: unknown }).type !== 'Polygon'
      )
        ctx.addIssue({ code: 'custom', path: ['type'], message: POLYGON, input: geometry });
      return geometry;
    },
    z
      .object(
        { type: z.literal('Polygon', { error: POLYGON }), coordinates: PolygonCoordinates },
        { error: 'each geometry must be a GeoJSON Polygon object' },
      )
      .superRefine(
        (polygon, ctx) => {
          for (const fault of polygonFaults(polygon.coordinates, antimeridian)) {
            ctx.addIssue({ code: 'custom', path: ['coordinates', ...fault.path], message: fault.message });
          }
        },
        { when: (payload) => payload.issues.length === 0 },
      ),
  );

export const PolygonInput = polygonInput().meta({
  id: 'PolygonInput',
  // about 100 ha near Ames, Iowa: one closed ring, counter-clockwise (RFC 7946 section 3.1.6)
  examples: [{ type: 'Polygon', coordinates: [AMES_SQUARE] }],
});

export const MultiPolygon = z
  .object({ type: z.literal('MultiPolygon'), coordinates: z.array(PolygonCoordinates) })
  .meta({ id: 'MultiPolygon' });
export type MultiPolygon = z.infer<typeof MultiPolygon>;
