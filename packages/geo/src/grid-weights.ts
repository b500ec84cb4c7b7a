import turfArea from '@turf/area';
import bboxClip from '@turf/bbox-clip';
import type { Polygon } from 'geojson';
import { bboxRing } from './rings.js';

export type PolygonCoordinates = Polygon['coordinates'];

/** Shares of a cell below this fraction of its area, or of the polygon's, are rounding noise (cellWeights). */
const SLIVER = 1e-9;

/**
 * A regular grid of cells by their centres (the GridSource convention, docs/architecture.md §6):
 * cell (i, j) is centred on (lats[i], lons[j]) and spans dLat x dLon around it. Values laid out
 * on it are row-major [lat][lon].
 */
export interface CellGrid {
  lats: ArrayLike<number>;
  lons: ArrayLike<number>;
  dLat: number;
  dLon: number;
}

/** [west, south, east, north] of one polygon's outer ring (holes lie inside it). */
export function polygonBBox(polygon: PolygonCoordinates): [number, number, number, number] {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (const p of polygon[0] ?? []) {
    const x = p[0] as number,
      y = p[1] as number;
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  return [w, s, e, n];
}

/** The bbox [west, south, east, north] of a polygon that is exactly one axis-aligned rectangle (one ring of four corners), else null. */
export function rectangleOf(polygon: PolygonCoordinates): [number, number, number, number] | null {
  const ring = polygon[0];
  if (polygon.length !== 1 || !ring || ring.length !== 5) return null;
  const xs = new Set(ring.map((p) => p[0]));
  const ys = new Set(ring.map((p) => p[1]));
  if (xs.size !== 2 || ys.size !== 2) return null;
  // four distinct corners, each edge along one axis
  for (let i = 0; i < 4; i++) if (ring[i]![0] !== ring[i + 1]![0] && ring[i]![1] !== ring[i + 1]![1]) return null;
  return polygonBBox(polygon);
}

/** [west, south, east, north] of a set of polygons. */
export function polygonsBBox(polygons: PolygonCoordinates[]): [number, number, number, number] {
  const out: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    const [w, s, e, n] = polygonBBox(polygon);
    if (w < out[0]) out[0] = w;
    if (s < out[1]) out[1] = s;
    if (e > out[2]) out[2] = e;
    if (n > out[3]) out[3] = n;
  }
  return out;
}

/** Indexes k with centres[k] ± half touching [lo, hi] (edges included), as [first, last]. */
function touching(centres: ArrayLike<number>, half: number, lo: number, hi: number): [number, number] {
  let first = -1,
    last = -2;
  for (let k = 0; k < centres.length; k++) {
    const c = centres[k] as number;
    if (c + half >= lo && c - half <= hi) {
      if (first < 0) first = k;
      last = k;
    }
  }
  return [first, last];
}

/**
 * Area in square metres of each grid cell's intersection with the polygons (a field's stored
 * Polygons, holes included), row-major [lat][lon]; 0 for cells the polygons do not reach.
 *
 * Each polygon is clipped to each cell's bbox with @turf/bbox-clip and measured with @turf/area
 * (not a per-cell polygon intersection). bbox-clip is Sutherland-Hodgman per ring, so a
 * concave polygon can come back with degenerate edges along the cell border; they enclose no area,
 * and @turf/area subtracts the clipped holes, so the area is the exact intersection's. Only
 * cells whose bbox touches a polygon's bbox are clipped. Polygons of one field are assumed not to
 * overlap each other (each is counted in full; polygonOverlapFaults rejects fields where they do).
 *
 * A share below SLIVER of the cell's own area is 0: a polygon edge that lies on a cell edge gives
 * the neighbouring cell a sliver of about 1e-12 of a cell from rounding in lat ± dLat/2 (seen with
 * fields on the edges of the 0.01 degree synthetic grid), and that cell would otherwise count as
 * covered in the minimum and maximum. The floor is SLIVER of the polygon's area where that is
 * smaller: a trial plot of a few square metres is under a billionth of a 1 degree cell, yet all of
 * it lies over that cell, and a rounding sliver, as long as the edge it runs along, is smaller still.
 */
export function cellWeights(polygons: PolygonCoordinates[], grid: CellGrid): Float64Array {
  const nLat = grid.lats.length,
    nLon = grid.lons.length;
  const weights = new Float64Array(nLat * nLon);
  const halfLat = grid.dLat / 2,
    halfLon = grid.dLon / 2;
  for (const polygon of polygons) {
    const [w, s, e, n] = polygonBBox(polygon);
    const [i0, i1] = touching(grid.lats, halfLat, s, n);
    const [j0, j1] = touching(grid.lons, halfLon, w, e);
    const geometry: Polygon = { type: 'Polygon', coordinates: polygon };
    const polygonFloor = SLIVER * turfArea(geometry);
    for (let i = i0; i <= i1; i++) {
      const lat = grid.lats[i] as number;
      // Every cell of a row has the same area.
      const cellFloor = SLIVER * turfArea({ type: 'Polygon', coordinates: [bboxRing(0, lat - halfLat, grid.dLon, lat + halfLat)] });
      const floor = Math.min(cellFloor, polygonFloor);
      for (let j = j0; j <= j1; j++) {
        const lon = grid.lons[j] as number;
        const clipped = bboxClip(geometry, [lon - halfLon, lat - halfLat, lon + halfLon, lat + halfLat]);
        if ((clipped.geometry.coordinates as unknown[]).length === 0) continue;
        const share = turfArea(clipped);
        if (share > floor) weights[i * nLon + j]! += share;
      }
    }
  }
  return weights;
}
