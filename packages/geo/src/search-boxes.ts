import { EARTH_RADIUS_KM } from './distance.js';

/** A latitude/longitude box in degrees that does not wrap: west <= east. */
export interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

const RAD = Math.PI / 180;
/** Great-circle km of one degree of arc on the sphere haversineKm measures on. */
const KM_PER_DEGREE = EARTH_RADIUS_KM * RAD;
/** Added to each side of a grown box, degrees (about 0.1 m), so rounding of its bounds never cuts into the circle. */
const BOX_MARGIN_DEG = 1e-6;

/**
 * Degrees of longitude within `arc` degrees of arc of a box spanning south..north (180: all):
 * a circle of angular radius d around latitude φ spans asin(sin d / cos φ) either side of its
 * centre (the bounding box of a spherical cap), widest at the box's most poleward latitude, and
 * every meridian once it reaches a pole.
 */
function lonSpan(arc: number, south: number, north: number): number {
  const poleward = Math.max(Math.abs(south), Math.abs(north));
  if (poleward + arc >= 90) return 180;
  return Math.min(180, Math.asin(Math.sin(arc * RAD) / Math.cos(poleward * RAD)) / RAD + BOX_MARGIN_DEG);
}

/**
 * Boxes that hold every point within `km` (great-circle, as haversineKm measures) of a box, split
 * at the antimeridian into boxes that do not wrap: what a search by distance reads before it
 * measures. A box asked as it is (km 0) is kept exactly; a point is a box of no size.
 */
export function boxesWithin(box: Box, km: number): Box[] {
  if (km === 0) return [box];
  const arc = km / KM_PER_DEGREE;
  const south = Math.max(-90, box.south - arc - BOX_MARGIN_DEG);
  const north = Math.min(90, box.north + arc + BOX_MARGIN_DEG);
  const dLon = lonSpan(arc, box.south, box.north);
  const west = box.west - dLon;
  const east = box.east + dLon;
  if (east - west >= 360) return [{ south, north, west: -180, east: 180 }];
  if (west < -180)
    return [
      { south, north, west: -180, east },
      { south, north, west: west + 360, east: 180 },
    ];
  if (east > 180)
    return [
      { south, north, west, east: 180 },
      { south, north, west: -180, east: east - 360 },
    ];
  return [{ south, north, west, east }];
}
