import bboxClip from '@turf/bbox-clip';
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

/** The part of `a` outside `b` (polygon-clipping), as Polygon coordinates; each set read as the union of its polygons. */
export function differenceOf(a: PolygonCoordinates[], b: PolygonCoordinates[]): PolygonCoordinates[] {
  if (a.length === 0) return [];
  if (b.length === 0) return a;
  return polygonClipping.difference(a as unknown as Geom, b as unknown as Geom) as PolygonCoordinates[];
}

/**
 * A polygon cut to a bbox (@turf/bbox-clip, Sutherland-Hodgman per ring), without the rings that
 * vanish; empty when nothing is left. A concave polygon can come back with degenerate edges
 * along the bbox border: they enclose no area, so overlay and area read it as the true cut.
 */
export function clipToBBox(polygon: PolygonCoordinates, bbox: [number, number, number, number]): PolygonCoordinates {
  const clipped = bboxClip({ type: 'Polygon', coordinates: polygon }, bbox).geometry.coordinates as PolygonCoordinates;
  const rings = clipped.filter((ring) => ring.length >= 4);
  return rings.length > 0 && rings[0] === clipped[0] ? rings : [];
}
