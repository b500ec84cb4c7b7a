/**
 * The product catalog as an account sees it (spec 2.4, 4.6, 5): which products it may see, and
 * the filters of GET /products, all combined (docs/interface.md §6).
 */
import { NotFoundError } from '@fieldcast/kit';
import { areaOf, containsPoint, differenceOf, polygonsBBox, type PolygonCoordinates, rectangleOf } from '@fieldcast/geo';
import type { CoverageQuery } from '@fieldcast/schemas';
import { type Catalog, hasFrameIn, type ProductDef } from '@fieldcast/weather';

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

/** Spec 5: a public product for everyone, a restricted one only for the accounts granted it (docs/decisions/0121-product-access.md). */
export function isVisible(p: ProductDef, granted: ReadonlySet<string>): boolean {
  return p.access !== 'restricted' || granted.has(p.id);
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

/** Spec 4.6 coverage: the product's coverage contains the point, or the whole of the polygons (boundary included). */
export function coverageContains(shape: CoverageShape, query: CoverageQuery): boolean {
  if (query.type === 'point') return insideBBox(query.position, shape.bbox) && containsPoint(shape.polygons, query.position);
  for (const polygon of query.polygons) for (const position of polygon[0] ?? []) if (!insideBBox(position, shape.bbox)) return false;
  // Each polygon inside one rectangle of the coverage: no overlay needed.
  if (query.polygons.every((polygon) => shape.rectangles.some((r) => within(polygonsBBox([polygon]), r)))) return true;
  const outside = differenceOf(query.polygons, shape.polygons);
  if (outside.length === 0) return true;
  return areaOf(outside) <= OUTSIDE_TOLERANCE * areaOf(query.polygons);
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
