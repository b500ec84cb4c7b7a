import polygonClipping, { type Geom } from 'polygon-clipping';
import type { PolygonCoordinates } from './grid-weights.js';
import { polygonBBox } from './grid-weights.js';
import { bboxRing } from './rings.js';

/**
 * A set of polygons in one continuous longitude frame: RFC 7946 section 3.1.9 has a geometry
 * that crosses the antimeridian sent cut in two at ±180, so a field there arrives as parts ending
 * at 180 and parts starting at -180. Planar work on them (bbox, grid cells, centroid, isobands)
 * must see one area, not two ends of the world.
 */
export interface UnwrappedPolygons {
  /** the polygons, those west of the cut moved a turn east: longitudes within [cut, cut + 360] */
  polygons: PolygonCoordinates[];
  /** the longitude added to each polygon: 0 or 360 */
  shifts: number[];
}

/**
 * Puts polygons whose longitudes are within -180..180 into the frame where they are closest
 * together: the circle of longitudes is cut at the middle of the widest gap between the polygons'
 * longitude spans. When that gap is the one across ±180 (every field not at the antimeridian)
 * nothing moves and the result holds the same arrays. A polygon's own span never includes the cut,
 * because each polygon lies within -180..180 and the cut is in a gap between polygons.
 */
export function unwrapLongitudes(polygons: PolygonCoordinates[]): UnwrappedPolygons {
  const shifts = polygons.map(() => 0);
  if (polygons.length < 2) return { polygons, shifts };
  const spans = polygons.map((p) => polygonBBox(p)).map(([w, , e]) => ({ w, e }));
  const sorted = [...spans].sort((a, b) => a.w - b.w);
  let reach = sorted[0]!.e,
    widest = 0,
    cut = Infinity;
  for (const s of sorted.slice(1)) {
    if (s.w - reach > widest) {
      widest = s.w - reach;
      cut = (s.w + reach) / 2;
    }
    reach = Math.max(reach, s.e);
  }
  // Ties keep the frame as sent.
  const across = sorted[0]!.w + 360 - reach;
  if (widest <= across) return { polygons, shifts };
  const out = polygons.map((p, k) => {
    if (spans[k]!.e > cut) return p;
    shifts[k] = 360;
    return p.map((ring) => ring.map(([lon, lat, ...rest]) => [(lon as number) + 360, lat as number, ...rest]));
  });
  return { polygons: out, shifts };
}

/** A longitude moved by whole turns into -180..180 (180 stays 180). */
export function normalLongitude(lon: number): number {
  if (lon >= -180 && lon <= 180) return lon;
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 && lon > 0 ? 180 : wrapped;
}

/**
 * A polygon of a continuous frame (longitudes possibly beyond ±180) as RFC 7946 section 3.1.9
 * wants it sent: cut at the antimeridian, each piece moved by whole turns into -180..180. A polygon
 * already within -180..180 comes back as it is.
 */
export function cutAtAntimeridian(polygon: PolygonCoordinates): PolygonCoordinates[] {
  const [w, s, e, n] = polygonBBox(polygon);
  if (w >= -180 && e <= 180) return [polygon];
  const out: PolygonCoordinates[] = [];
  for (let turn = Math.floor((w + 180) / 360); turn * 360 - 180 < e; turn++) {
    const west = turn * 360 - 180;
    const window = [bboxRing(west, s - 1, west + 360, n + 1)];
    for (const piece of polygonClipping.intersection(polygon as unknown as Geom, window as unknown as Geom) as PolygonCoordinates[]) {
      out.push(turn === 0 ? piece : piece.map((ring) => ring.map(([lon, lat]) => [(lon as number) - turn * 360, lat as number])));
    }
  }
  return out;
}
