import type { Box } from './search-boxes.js';

/**
 * Whether a track of [lon, lat] vertices meets a closed box (edges included): any part of its
 * line, not only a vertex, so a segment that crosses the box between two vertices outside it
 * meets it. Segments are straight in longitude and latitude, as distanceToTrackKm takes them on its
 * local plane and as a GeoJSON reader draws a LineString (RFC 7946 section 3.1.4); a segment
 * across the antimeridian goes the short way round, as distanceToTrackKm's does.
 */
export function trackMeetsBox(track: readonly (readonly [number, number])[], box: Box): boolean {
  if (track.length === 1) return segmentMeetsBox(track[0]!, track[0]!, box);
  for (let i = 1; i < track.length; i++) {
    const a = track[i - 1]!;
    let bLon = track[i]![0];
    if (bLon - a[0] > 180) bLon -= 360;
    else if (bLon - a[0] < -180) bLon += 360;
    const b: [number, number] = [bLon, track[i]![1]];
    // a segment unwrapped past ±180 is also tested against the box a turn of the globe away
    for (const shift of [0, 360, -360]) {
      if (segmentMeetsBox(a, b, { ...box, west: box.west + shift, east: box.east + shift })) return true;
    }
  }
  return false;
}

/** Liang-Barsky clipping of the segment a..b to the closed box: whether any of it is left. */
function segmentMeetsBox(a: readonly [number, number], b: readonly [number, number], box: Box): boolean {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, a[0] - box.west],
    [dx, box.east - a[0]],
    [-dy, a[1] - box.south],
    [dy, box.north - a[1]],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}
