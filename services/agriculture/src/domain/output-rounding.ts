import { type PolygonCoordinates, rightHandRings, signedRingArea } from '@fieldcast/geo';

/**
 * Decimals of the positions the contours report: RFC 7946 section 11.2 finds about 6 (some 10 cm)
 * enough, far finer than isobands drawn between grid points hundredths of a degree apart
 * (docs/decisions/0412-contour-positions.md).
 */
const POSITION_DECIMALS = 6;
const POSITION_SCALE = 10 ** POSITION_DECIMALS;
/** Half a unit of the last reported decimal: a value this close to one of the field's is that value. */
const SNAP = 0.5 / POSITION_SCALE;

/** The nearest of the sorted values to v when it is within SNAP, else v at POSITION_DECIMALS. */
function reported(v: number, sorted: number[]): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  let best: number | undefined;
  for (const k of [lo - 1, lo]) {
    const c = sorted[k];
    if (c !== undefined && Math.abs(c - v) <= SNAP && (best === undefined || Math.abs(c - v) < Math.abs(best - v))) best = c;
  }
  if (best !== undefined) return best;
  const rounded = Math.round(v * POSITION_SCALE) / POSITION_SCALE;
  return rounded === 0 ? 0 : rounded;
}

const samePosition = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1];

/**
 * Computed polygons (isobands clipped to a field, cut at ±180) as the contours report them. The
 * clipping and the turn of longitude added at the antimeridian leave the field's own corners a
 * few units of the 17th digit off (45.02 as 45.019999999999996), and every other position with
 * 17 significant digits; so each longitude or latitude within half a unit of the last reported
 * decimal of one of the field's own values is that value exactly (its corners, and the lines of
 * its edges along a meridian or parallel), and the rest are rounded to 6 decimals (RFC 7946
 * section 11.2). Rounding can fold a ring: positions equal to the one before are dropped, each
 * ring is closed again, a ring left with fewer than 4 positions or no area is dropped (a polygon
 * with its exterior), and the rings keep the right-hand rule (RFC 7946 section 3.1.6).
 */
export function outputPolygons(polygons: PolygonCoordinates[], field: PolygonCoordinates[]): PolygonCoordinates[] {
  const lons = new Set<number>(),
    lats = new Set<number>();
  for (const polygon of field)
    for (const ring of polygon)
      for (const [lon, lat] of ring) {
        lons.add(lon!);
        lats.add(lat!);
      }
  const sortedLons = [...lons].sort((a, b) => a - b),
    sortedLats = [...lats].sort((a, b) => a - b);
  const out: PolygonCoordinates[] = [];
  for (const polygon of polygons) {
    const rings: number[][][] = [];
    for (const [r, ring] of polygon.entries()) {
      const kept: number[][] = [];
      for (const [lon, lat, ...rest] of ring) {
        const position = [reported(lon!, sortedLons), reported(lat!, sortedLats), ...rest];
        if (kept.length === 0 || !samePosition(kept[kept.length - 1]!, position)) kept.push(position);
      }
      if (kept.length > 1 && samePosition(kept[0]!, kept[kept.length - 1]!)) kept.pop();
      const closed = kept.length >= 3 ? [...kept, [...kept[0]!]] : [];
      if (closed.length >= 4 && signedRingArea(closed) !== 0) rings.push(closed);
      else if (r === 0) break;
    }
    if (rings.length > 0) out.push(rightHandRings(rings));
  }
  return out;
}
