/** A position in decimal degrees (WGS84). */
export interface Point {
  lat: number;
  lon: number;
}

/** Mean Earth radius, km (IUGG R1, Moritz 2000). */
export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle distance by the haversine formula, km. */
export function haversineKm(a: Point, b: Point): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Distance from a point to a track of [lon, lat] vertices, km: the nearest point of each segment
 * found on a local equirectangular plane around the point (tracks are tens of km long, where the
 * plane's error is far below the radius's precision), its distance then measured on the sphere.
 */
export function distanceToTrackKm(p: Point, track: readonly (readonly [number, number])[]): number {
  const cos = Math.cos(p.lat * RAD);
  const toPlane = ([lon, lat]: readonly [number, number]) => {
    let dLon = lon - p.lon;
    if (dLon > 180) dLon -= 360;
    if (dLon < -180) dLon += 360;
    return { x: dLon * cos, y: lat - p.lat };
  };
  let best = Infinity;
  for (let i = 0; i < track.length; i++) {
    const a = toPlane(track[i]!);
    const b = toPlane(track[Math.min(i + 1, track.length - 1)]!);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(a.x * dx + a.y * dy) / len2));
    const nearest = { lat: p.lat + a.y + t * dy, lon: p.lon + (cos === 0 ? 0 : (a.x + t * dx) / cos) };
    best = Math.min(best, haversineKm(p, nearest));
  }
  return best;
}
