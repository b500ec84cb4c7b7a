import kinks from '@turf/kinks';
import { polygon as turfPolygon } from '@turf/helpers';

export type Position = [number, number] | number[];
export type Ring = Position[];

export interface GeometryFault {
  /** path below the polygon's coordinates, e.g. [0, 3] = ring 0, position 3 */
  path: (string | number)[];
  message: string;
}

/**
 * Faults of one GeoJSON Polygon's coordinates (RFC 7946 section 3.1.6): a linear ring has at
 * least four positions and is closed; positions are [lon, lat] in WGS84 range; rings do not
 * cross themselves or each other. Returns every fault found, empty when the polygon is valid.
 */
export function polygonFaults(rings: Ring[]): GeometryFault[] {
  const faults: GeometryFault[] = [];
  if (rings.length === 0) return [{ path: [], message: 'a polygon needs at least one linear ring' }];
  rings.forEach((ring, r) => {
    if (ring.length < 4) faults.push({ path: [r], message: `a linear ring needs at least 4 positions, got ${ring.length}` });
    ring.forEach((p, i) => {
      const [lon, lat] = p;
      if (p.length < 2 || !Number.isFinite(lon) || !Number.isFinite(lat)) {
        faults.push({ path: [r, i], message: 'a position is [longitude, latitude]' });
      } else if (lon! < -180 || lon! > 180 || lat! < -90 || lat! > 90) {
        faults.push({ path: [r, i], message: `position [${lon}, ${lat}] is out of range: longitude -180..180, latitude -90..90` });
      }
    });
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (ring.length >= 4 && first && last && (first[0] !== last[0] || first[1] !== last[1])) {
      faults.push({ path: [r], message: 'a linear ring must be closed: its last position equals its first' });
    }
  });
  if (faults.length > 0) return faults;
  const crossings = kinks(turfPolygon(rings as number[][][])).features;
  if (crossings.length > 0) {
    const at = crossings[0]!.geometry.coordinates;
    faults.push({ path: [], message: `the polygon intersects itself at [${at[0]}, ${at[1]}]` });
  }
  return faults;
}
