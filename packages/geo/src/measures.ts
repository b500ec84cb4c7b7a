import turfArea from '@turf/area';
import turfCentroid from '@turf/centroid';
import type { MultiPolygon, Polygon } from 'geojson';

export interface LatLon {
  latitude: number;
  longitude: number;
}

/**
 * Centroid of a set of polygons as @turf/centroid computes it (the mean of the vertices, the
 * closing position excluded). Fields and assets report this point (spec 2.1, 2.2).
 */
export function centroidOf(polygons: Polygon['coordinates'][]): LatLon {
  const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: polygons };
  const [longitude, latitude] = turfCentroid(geometry).geometry.coordinates as [number, number];
  return { latitude, longitude };
}

/** Geodesic area in square metres (@turf/area, spherical approximation). */
export function areaOf(polygons: Polygon['coordinates'][]): number {
  return turfArea({ type: 'MultiPolygon', coordinates: polygons });
}
