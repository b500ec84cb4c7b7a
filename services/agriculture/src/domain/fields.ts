import { areaOf, centroidOf } from '@fieldcast/geo';
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

/** Derives what the service computes from the submitted geometries (spec 2.1). */
export function fieldRecord(id: string, accountId: string, input: FieldInput): FieldRecord {
  const polygons = input.geometries.map((g) => g.coordinates);
  return { id, accountId, description: input.description, polygons, centroid: centroidOf(polygons), areaM2: areaOf(polygons) };
}

/** Each submitted Polygon is served as a MultiPolygon holding that one polygon (spec 2.1). */
export function fieldView(record: FieldRecord): Field {
  return {
    id: record.id,
    description: record.description,
    type: 'GeometryCollection',
    geometries: record.polygons.map((coordinates) => ({ type: 'MultiPolygon', coordinates: [coordinates] })),
    centroid: record.centroid,
  };
}
