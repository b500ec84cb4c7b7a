import { areaOf, centroidOf, rightHandRings } from '@fieldcast/geo';
import type { Field, FieldInput } from '@fieldcast/schemas';

export type PolygonCoordinates = number[][][];

/** A field as the store holds it. */
export interface FieldRecord {
  id: string;
  accountId: string;
  description: string;
  polygons: PolygonCoordinates[];
  centroid: { latitude: number; longitude: number };
  areaM2: number;
}

/**
 * Derives what the service computes from the submitted geometries (spec 2.1). Rings are stored in
 * RFC 7946's right-hand order (section 3.1.6), however they were sent, so the answers, the events
 * and the contours drawn from them all carry one orientation (docs/decisions/0369-field-rings-right-hand.md).
 */
export function fieldRecord(id: string, accountId: string, input: FieldInput): FieldRecord {
  const polygons = input.geometries.map((g) => rightHandRings(g.coordinates));
  return { id, accountId, description: input.description, polygons, centroid: centroidOf(polygons), areaM2: areaOf(polygons) };
}

/**
 * Each submitted Polygon is served as a MultiPolygon holding that one polygon (spec 2.1), its rings
 * in right-hand order (RFC 7946 section 3.1.6), also those of a record stored in another order.
 */
export function fieldView(record: FieldRecord): Field {
  return {
    id: record.id,
    description: record.description,
    type: 'GeometryCollection',
    geometries: record.polygons.map((coordinates) => ({ type: 'MultiPolygon', coordinates: [rightHandRings(coordinates)] })),
    centroid: record.centroid,
  };
}
