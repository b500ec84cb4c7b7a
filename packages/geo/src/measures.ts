import turfArea from '@turf/area';
import turfCentroid from '@turf/centroid';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { normalLongitude, unwrapLongitudes } from './antimeridian.js';

export interface LatLon {
  latitude: number;
  longitude: number;
}

/**
 * Centroid of a set of polygons as @turf/centroid computes it (the mean of the vertices, the
 * closing position excluded). Fields and assets report this point (spec 2.1, 2.2). The mean is
 * taken in the frame where the polygons are closest together (unwrapLongitudes), so a field cut
 * at the antimeridian (RFC 7946 section 3.1.9) has its centroid at the antimeridian, not at
 * longitude 0 halfway round the world; the longitude is reported within -180..180. A position
 * repeated in a row is one vertex: the ring is the same with or without the repeat, so its
 * centroid is too (docs/decisions/0521-a-repeated-position-is-one-vertex.md).
 */
export function centroidOf(polygons: Polygon['coordinates'][]): LatLon {
  const rings = unwrapLongitudes(polygons).polygons.map((polygon) => polygon.map(withoutRepeats));
  const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: rings };
  const [longitude, latitude] = turfCentroid(geometry).geometry.coordinates as [number, number];
  return { latitude: toNanodegrees(latitude), longitude: toNanodegrees(normalLongitude(longitude)) };
}

/** A ring without a position that repeats the one before it; the closing position stays, once. */
function withoutRepeats(ring: Position[]): Position[] {
  return ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]);
}

/**
 * A coordinate rounded to 1e-9 degrees (0.1 mm on the ground): a sum of vertices carries
 * floating-point noise in its last digits (42.019999999999996 for the mean of 41.98 and 42.06),
 * which is arithmetic, not geometry, and would be served as if it were a position.
 */
function toNanodegrees(degrees: number): number {
  return Math.round(degrees * 1e9) / 1e9;
}

/** Geodesic area in square metres (@turf/area, spherical approximation). */
export function areaOf(polygons: Polygon['coordinates'][]): number {
  return turfArea({ type: 'MultiPolygon', coordinates: polygons });
}
