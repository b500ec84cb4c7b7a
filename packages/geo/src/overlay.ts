import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import polygonClipping, { type Geom } from 'polygon-clipping';
import type { PolygonCoordinates } from './grid-weights.js';

/**
 * The common part of two sets of polygons (polygon-clipping, Martinez-Rueda-Feito sweep), as
 * Polygon coordinates. Each set is read as the union of its polygons.
 */
export function intersectionOf(a: PolygonCoordinates[], b: PolygonCoordinates[]): PolygonCoordinates[] {
  if (a.length === 0 || b.length === 0) return [];
  return polygonClipping.intersection(a as unknown as Geom, b as unknown as Geom) as PolygonCoordinates[];
}

/** Whether [lon, lat] lies in any of the polygons (holes excluded, boundary included). */
export function containsPoint(polygons: PolygonCoordinates[], position: [number, number]): boolean {
  return polygons.some((coordinates) => booleanPointInPolygon(position, { type: 'Polygon', coordinates }));
}
