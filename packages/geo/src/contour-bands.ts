import isobands from '@turf/isobands';
import type { Feature, FeatureCollection, MultiPolygon, Point } from 'geojson';
import polygonClipping, { type Geom } from 'polygon-clipping';
import type { CellGrid, PolygonCoordinates } from './grid-weights.js';
import { polygonsBBox } from './grid-weights.js';
import { differenceOf } from './overlay.js';
import { bboxRing } from './rings.js';

/** Mantissas of "round" band widths: 1, 2, 2.5 and 5 times a power of ten. */
const ROUND_MANTISSAS = [1, 2, 2.5, 5] as const;

export interface BandOptions {
  /** most bands the range may be cut into (default 10) */
  maxBands?: number;
  /**
   * narrowest band (default 1): with widths of 1, 2, 2.5, 5 x 10^n, n >= 0, every edge is a
   * multiple of 0.5 and so exact at the one decimal the areas report.
   */
  minStep?: number;
}

/**
 * Band edges for values in [min, max]: multiples of the narrowest round width (1, 2, 2.5, 5 x
 * 10^n) that cuts the range into at most `maxBands` bands. The first edge is at or below min and
 * the last strictly above max, because isobands are half-open [lower, upper) and the maximum
 * must fall inside a band. A flat range (min = max) gives one band.
 */
export function roundBandEdges(min: number, max: number, options: BandOptions = {}): number[] {
  const maxBands = options.maxBands ?? 10;
  const minStep = options.minStep ?? 1;
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max)
    throw new RangeError(`band range [${min}, ${max}] is not a finite range`);
  if (!(maxBands >= 1)) throw new RangeError(`maxBands must be at least 1, got ${maxBands}`);
  for (let power = Math.floor(Math.log10(minStep)); ; power++) {
    for (const m of ROUND_MANTISSAS) {
      const step = m * 10 ** power;
      if (step < minStep) continue;
      const first = Math.floor(min / step);
      const last = Math.floor(max / step) + 1;
      if (last - first <= maxBands) {
        const edges: number[] = [];
        // Integer multiples of the step, so 2.5 x k and powers of ten stay exact.
        for (let k = first; k <= last; k++) edges.push(k * step);
        return edges;
      }
    }
  }
}

export interface ContourBand {
  lower: number;
  upper: number;
  /** the band's part of the polygons, each a GeoJSON Polygon's coordinates */
  polygons: PolygonCoordinates[];
}

/** Values on the cell centres of a grid, row-major [lat][lon]. */
export interface GridValues extends CellGrid {
  values: ArrayLike<number>;
}

/**
 * Filled contours of gridded values, clipped to a set of polygons (docs/architecture.md §1: isobands
 * clipped to a polygon). The bands are @turf/isobands over the grid's cell centres (marching
 * squares, linear along cell edges), each intersected with the polygons by polygon-clipping and
 * returned as separate Polygons. Marching squares gives a partition of the grid's hull (the band
 * of each point is decided by the same edge interpolation from both sides), so when the hull
 * contains the polygons the clipped bands cover them exactly once.
 *
 * A cell without a value (NaN: a land-only store's sea) is no data: its square is cut out of the
 * polygons, as a field's statistics leave it out, and the marching squares take its nearest
 * valued cell's value there, so the bands beside it are drawn as far as the data reaches.
 *
 * The grid must extend beyond the polygons (one cell on every side is enough) and every value
 * must be NaN or inside [edges[0], edges[last]).
 */
export function contourBands(within: PolygonCoordinates[], valued: GridValues, edges: number[]): ContourBand[] {
  const { grid, missing } = gapsFilled(valued);
  const polygons = differenceOf(within, missing);
  if (polygons.length === 0) return [];
  const nLat = grid.lats.length,
    nLon = grid.lons.length;
  if (edges.length < 2) throw new RangeError('contour bands need at least two edges');
  const [w, s, e, n] = polygonsBBox(polygons);
  const hull = [grid.lons[0] as number, grid.lats[0] as number, grid.lons[nLon - 1] as number, grid.lats[nLat - 1] as number];
  if (nLat < 2 || nLon < 2 || hull[0]! > w || hull[1]! > s || hull[2]! < e || hull[3]! < n) {
    throw new RangeError(`the grid [${hull.join(', ')}] does not cover the polygons [${[w, s, e, n].join(', ')}]`);
  }
  // One band covers everything: the band is the polygons themselves, no clipping needed.
  if (edges.length === 2)
    return [{ lower: edges[0]!, upper: edges[1]!, polygons: polygons.map((p) => p.map((ring) => ring.map((pos) => [...pos]))) }];

  // A frame of cells below the lowest edge around the grid, so that every band's region is
  // bounded by closed contours inside the frame. @turf/isobands otherwise loses the outer ring
  // of a band whose lower contour closes without reaching the grid edge (a basin): it returns
  // the inside of that contour instead of the outside. Marching squares uses only a square's
  // four corners, so values inside the original hull, and so inside the polygons, are unchanged.
  const below = edges[0]! - (edges[1]! - edges[0]!);
  const points: Feature<Point>[] = [];
  const lat0 = grid.lats[0] as number,
    lon0 = grid.lons[0] as number;
  for (let i = -1; i <= nLat; i++) {
    const lat = i < 0 ? lat0 - grid.dLat : i === nLat ? (grid.lats[nLat - 1] as number) + grid.dLat : (grid.lats[i] as number);
    for (let j = -1; j <= nLon; j++) {
      const lon = j < 0 ? lon0 - grid.dLon : j === nLon ? (grid.lons[nLon - 1] as number) + grid.dLon : (grid.lons[j] as number);
      const inside = i >= 0 && i < nLat && j >= 0 && j < nLon;
      const z = inside ? (grid.values[i * nLon + j] as number) : below;
      points.push({ type: 'Feature', properties: { z }, geometry: { type: 'Point', coordinates: [lon, lat] } });
    }
  }
  const grid2d: FeatureCollection<Point> = { type: 'FeatureCollection', features: points };
  const bands = isobands(grid2d, edges, { zProperty: 'z' }).features;
  const clip = polygons as unknown as Geom;
  const out: ContourBand[] = [];
  bands.forEach((band: Feature<MultiPolygon>, k) => {
    if (band.geometry.coordinates.length === 0) return;
    const parts = polygonClipping.intersection(bandRegion(band.geometry.coordinates), clip);
    if (parts.length > 0) out.push({ lower: edges[k]!, upper: edges[k + 1]!, polygons: parts });
  });
  return out;
}

/**
 * The region of one band from @turf/isobands: what its contours enclose an odd number of times.
 * isobands nests the rings into Polygons itself and at times returns the ring round a rise as a
 * Polygon of its own instead of a hole; intersecting that MultiPolygon as it is fills the hole
 * in and puts the rise in two bands. Contours never cross, so the even-odd rule (the xor of every
 * ring) gives the band whichever Polygon each ring came in; one Polygon is taken as it is.
 */
function bandRegion(polygons: MultiPolygon['coordinates']): Geom {
  if (polygons.length === 1) return polygons as unknown as Geom;
  const rings = polygons.flat().map((ring) => [ring]) as unknown as Geom[];
  return polygonClipping.xor(rings[0]!, ...rings.slice(1));
}

/**
 * The grid with each missing value (NaN) replaced by that of its nearest valued cell (breadth
 * first over the four neighbours), and the squares of the missing cells, a rectangle per run of
 * them along a row. A grid with no value at all keeps its NaNs.
 */
function gapsFilled(grid: GridValues): { grid: GridValues; missing: PolygonCoordinates[] } {
  const nLat = grid.lats.length,
    nLon = grid.lons.length;
  if (!Array.prototype.some.call(grid.values, Number.isNaN)) return { grid, missing: [] };
  const values = Float64Array.from(grid.values);
  const missing: PolygonCoordinates[] = [];
  for (let i = 0; i < nLat; i++) {
    for (let j = 0; j < nLon;) {
      if (!Number.isNaN(values[i * nLon + j])) {
        j++;
        continue;
      }
      const from = j;
      while (j < nLon && Number.isNaN(values[i * nLon + j])) j++;
      const lat = grid.lats[i] as number;
      missing.push([
        bboxRing(
          (grid.lons[from] as number) - grid.dLon / 2,
          lat - grid.dLat / 2,
          (grid.lons[j - 1] as number) + grid.dLon / 2,
          lat + grid.dLat / 2,
        ),
      ]);
    }
  }
  let front: number[] = [];
  for (let k = 0; k < values.length; k++) if (!Number.isNaN(values[k])) front.push(k);
  while (front.length > 0) {
    const next: number[] = [];
    for (const k of front) {
      const i = Math.floor(k / nLon),
        j = k % nLon;
      for (const n of [i > 0 ? k - nLon : -1, i < nLat - 1 ? k + nLon : -1, j > 0 ? k - 1 : -1, j < nLon - 1 ? k + 1 : -1]) {
        if (n >= 0 && Number.isNaN(values[n])) {
          values[n] = values[k]!;
          next.push(n);
        }
      }
    }
    front = next;
  }
  return { grid: { ...grid, values }, missing };
}
