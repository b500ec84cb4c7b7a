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
