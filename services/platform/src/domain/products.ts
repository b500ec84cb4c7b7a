/**
 * The product catalog as an account sees it (spec 2.4, 4.6, 5): which products it may see, and
 * the filters of GET /products, all combined (docs/interface.md §6).
 */
import { NotFoundError } from '@fieldcast/kit';
import { areaOf, containsPoint, differenceOf, polygonsBBox, type PolygonCoordinates, rectangleOf } from '@fieldcast/geo';
import type { CoverageQuery } from '@fieldcast/schemas';
import { type Catalog, grantedProductId, hasFrameIn, type ProductDef } from '@fieldcast/weather';

export interface ProductFilter {
  contentType?: string;
  source?: string;
  aggregation?: number;
  /** both or neither (the query schema sees to it) */
  start?: number;
  end?: number;
  coverage?: CoverageQuery;
}

/**
 * A share of the query's area outside the coverage below which it counts as inside: the overlay
 * of two polygons sharing an edge can leave slivers of rounding, never a real part.
 */
const OUTSIDE_TOLERANCE = 1e-9;

/**
 * Spec 5: a public product for everyone, a restricted one only for the accounts granted it
 * (docs/decisions/0121-product-access.md); a synced source's product by the grant of the catalog
 * product it is made from (docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
 */
export function isVisible(p: ProductDef, granted: ReadonlySet<string>): boolean {
  return p.access !== 'restricted' || granted.has(grantedProductId(p));
}

/** A product by id or name that the account may see; another's restricted product reads as missing. */
export function visibleProduct(catalog: Catalog, ref: string, granted: ReadonlySet<string>): ProductDef {
  const p = catalog.product(ref);
  if (!p || !isVisible(p, granted)) throw new NotFoundError('product', ref);
  return p;
}

type BBox = [number, number, number, number];

/** A product's coverage as polygons, with their bounding box for a quick refusal and the rectangles among them for a quick acceptance. */
export interface CoverageShape {
  polygons: PolygonCoordinates[];
  bbox: BBox;
  rectangles: BBox[];
}

export function coverageShape(p: ProductDef): CoverageShape {
  const polygons = p.coverage.geometry.coordinates as PolygonCoordinates[];
  return { polygons, bbox: polygonsBBox(polygons), rectangles: polygons.map(rectangleOf).filter((r): r is BBox => r !== null) };
}

const within = ([w, s, e, n]: BBox, [W, S, E, N]: BBox) => w >= W && s >= S && e <= E && n <= N;

function insideBBox([lon, lat]: number[], [w, s, e, n]: BBox): boolean {
  return lon! >= w && lon! <= e && lat! >= s && lat! <= n;
}

/** Whether the coverage holds the position (boundary included). */
export function coverageHolds(shape: CoverageShape, position: [number, number]): boolean {
  return insideBBox(position, shape.bbox) && containsPoint(shape.polygons, position);
}

/**
 * Spec 4.6 coverage: the product's coverage contains every point, line and polygon of the
 * geometry (boundary included).
 */
export function coverageContains(shape: CoverageShape, query: CoverageQuery): boolean {
  return (
    query.points.every((p) => coverageHolds(shape, p)) &&
    query.lines.every((line) => lineInside(shape, line)) &&
    (query.polygons.length === 0 || polygonsInside(shape, query.polygons))
  );
}

function polygonsInside(shape: CoverageShape, polygons: PolygonCoordinates[]): boolean {
  for (const polygon of polygons) for (const position of polygon[0] ?? []) if (!insideBBox(position, shape.bbox)) return false;
  // Each polygon inside one rectangle of the coverage: no overlay needed.
  if (polygons.every((polygon) => shape.rectangles.some((r) => within(polygonsBBox([polygon]), r)))) return true;
  const outside = differenceOf(polygons, shape.polygons);
  if (outside.length === 0) return true;
  return areaOf(outside) <= OUTSIDE_TOLERANCE * areaOf(polygons);
}

/**
 * A line lies in the coverage when each of its segments does: cut at every point where it meets
 * an edge of the coverage, each piece lies on one side of the boundary, so its midpoint tells
 * which (a piece along an edge is on the boundary, inside).
 */
function lineInside(shape: CoverageShape, line: [number, number][]): boolean {
  if (!line.every((p) => coverageHolds(shape, p))) return false;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1]!,
      b = line[i]!;
    const cuts = [0, 1];
    for (const polygon of shape.polygons)
      for (const ring of polygon) for (let k = 1; k < ring.length; k++) cuts.push(...meetings(a, b, ring[k - 1]!, ring[k]!));
    cuts.sort((x, y) => x - y);
    for (let k = 1; k < cuts.length; k++) {
      if (cuts[k]! - cuts[k - 1]! < 1e-12) continue;
      const t = (cuts[k - 1]! + cuts[k]!) / 2;
      if (!coverageHolds(shape, [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t])) return false;
    }
  }
  return true;
}

/** Where along a -> b (0 to 1) it meets the edge p -> q: the crossing, or a collinear edge's ends. */
function meetings(a: number[], b: number[], p: number[], q: number[]): number[] {
  const rx = b[0]! - a[0]!,
    ry = b[1]! - a[1]!,
    sx = q[0]! - p[0]!,
    sy = q[1]! - p[1]!;
  const wx = p[0]! - a[0]!,
    wy = p[1]! - a[1]!;
  const d = rx * sy - ry * sx;
  if (d !== 0) {
    const t = (wx * sy - wy * sx) / d,
      u = (wx * ry - wy * rx) / d;
    return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? [t] : [];
  }
  // parallel: only a collinear edge meets the segment, along it from p to q
  if (wx * ry - wy * rx !== 0) return [];
  const len = rx * rx + ry * ry;
  const along = (x: number, y: number) => ((x - a[0]!) * rx + (y - a[1]!) * ry) / len;
  return len === 0 ? [] : [along(p[0]!, p[1]!), along(q[0]!, q[1]!)].filter((t) => t > 0 && t < 1);
}

/** Whether a product passes every filter given (spec 4.6: all are combined). */
export function matchesFilter(
  p: ProductDef,
  shape: CoverageShape,
  filter: ProductFilter,
  nowMs: number,
  /** whether it has a frame in [start, end]: the catalog's rule unless given (a synced product's frames are those stored) */
  hasFrame: (startMs: number, endMs: number) => boolean = (startMs, endMs) => hasFrameIn(p, nowMs, startMs, endMs),
): boolean {
  if (filter.contentType !== undefined && p.contentType !== filter.contentType) return false;
  if (filter.source !== undefined && p.source !== filter.source) return false;
  if (filter.aggregation !== undefined && p.aggregationPeriodInMinutes !== filter.aggregation) return false;
  if (filter.start !== undefined && filter.end !== undefined && !hasFrame(filter.start, filter.end)) return false;
  if (filter.coverage !== undefined && !coverageContains(shape, filter.coverage)) return false;
  return true;
}
