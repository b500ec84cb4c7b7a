/**
 * The closed, counter-clockwise linear ring of a bbox (RFC 7946 section 3.1.6: exterior rings
 * are counter-clockwise), as GeoJSON Polygon coordinates need it.
 */
export function bboxRing(west: number, south: number, east: number, north: number): number[][] {
  return [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
    [west, south],
  ];
}

/**
 * Twice the signed planar area of a closed ring in [lon, lat] (the shoelace formula): positive
 * when the ring runs counter-clockwise, negative clockwise, 0 when it encloses nothing. Taken
 * about the first position, so large coordinates lose no digits to the products. Planar degrees
 * tell the orientation of any ring RFC 7946 allows: no edge spans more than 180 degrees of
 * longitude (section 3.1.9), so the ring is drawn on the plane as it is on the sphere.
 */
export function signedRingArea(ring: readonly (readonly number[])[]): number {
  const first = ring[0];
  if (!first) return 0;
  const x0 = first[0]!,
    y0 = first[1]!;
  let sum = 0;
  for (let i = 1; i + 1 < ring.length; i++) {
    const p = ring[i]!,
      q = ring[i + 1]!;
    sum += (p[0]! - x0) * (q[1]! - y0) - (q[0]! - x0) * (p[1]! - y0);
  }
  return sum;
}

/**
 * A polygon with its rings in the right-hand order RFC 7946 section 3.1.6 asks of a producer:
 * the exterior ring counter-clockwise, holes clockwise. A ring the other way round is reversed,
 * which keeps its first (and closing) position and every position, only the direction changes;
 * a polygon already in that order comes back as the same array. Parsers are to accept either
 * order (the same section), so input is read in any order and answered in this one.
 */
export function rightHandRings<P extends number[][][]>(polygon: P): P {
  let out: P | null = null;
  polygon.forEach((ring, r) => {
    const area = signedRingArea(ring);
    if (r === 0 ? area < 0 : area > 0) {
      out ??= [...polygon] as P;
      out[r] = [...ring].reverse();
    }
  });
  return out ?? polygon;
}
