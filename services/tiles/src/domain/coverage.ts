/**
 * Which pixels of a tile lie in its product's coverage (spec 2.4). Outside the coverage there is
 * no data: the pixel stays transparent, since spec 2.3 gives a colorizer's `defaultColor` to
 * values outside its stops, and no data is not a value.
 */
import { containsPoint, polygonsBBox, type PolygonCoordinates, rectangleOf } from '@fieldcast/geo';
import { TILE_SIZE, type ProductDef } from '@fieldcast/weather';
import { pixelCentres, type TileAddress } from './sampling.js';

type BBox = [number, number, number, number];

const contains = ([w, s, e, n]: BBox, lon: number, lat: number) => lon >= w && lon <= e && lat >= s && lat <= n;

/**
 * One byte per pixel, row-major from the top-left: 1 where the pixel centre lies in the product's
 * coverage (boundary included), 0 outside. Null when every pixel centre lies in it, as for a
 * global product, so most tiles pay one bbox test.
 */
export function coverageMask(product: ProductDef, tile: TileAddress): Uint8Array | null {
  const polygons = product.coverage.geometry.coordinates as PolygonCoordinates[];
  const rectangles = polygons.map(rectangleOf);
  const { lons, lats } = pixelCentres(tile);
  const west = lons[0]!;
  const east = lons[TILE_SIZE - 1]!;
  const north = lats[0]!;
  const south = lats[TILE_SIZE - 1]!;
  if (rectangles.some((r) => r && contains(r, west, south) && contains(r, east, north))) return null;
  const mask = new Uint8Array(TILE_SIZE * TILE_SIZE);
  const [w, s, e, n] = polygonsBBox(polygons);
  if (east < w || west > e || north < s || south > n) return mask;
  const allRectangles = rectangles.every((r) => r !== null);
  for (let r = 0; r < TILE_SIZE; r++) {
    const lat = lats[r]!;
    if (lat < s || lat > n) continue;
    for (let c = 0; c < TILE_SIZE; c++) {
      const lon = lons[c]!;
      const inside = rectangles.some((b) => b !== null && contains(b, lon, lat)) || (!allRectangles && containsPoint(polygons, [lon, lat]));
      if (inside) mask[r * TILE_SIZE + c] = 1;
    }
  }
  return mask;
}
