/**
 * A frame's grid sampled at the centres of a tile's pixels (docs/decisions/0132-tile-rendering.md):
 * bilinear between the four surrounding grid points (`linear`) or the nearest grid point
 * (`discrete`, and mask layers), through the GridSource interface only
 * (docs/architecture.md §6).
 *
 * The tile is read in bands of pixel rows. Where one source answers every pixel of a band and
 * reads point grids (the synthetic world: the grid points around the pixels in one sub-grid
 * read), a band over more than the 2 x 2 grid points per pixel such a read takes (zooms below the
 * native one) is read as one point grid. Otherwise a band whose grid window is small (the cells
 * under it at most WINDOW_CELLS_PER_PIXEL times its pixels: zooms near and beyond the native one)
 * is one window read from the source that answers its pixel centres, and a band over more of the
 * grid is read point by point. A band across the edge of a store's cells is cut into the few
 * rectangles of pixels whose point reads go to one source, each read as a band is. Either way a
 * tile holds at most one band's reads besides its own 256 x 256 values, never anything
 * proportional to the grid, and the event loop is given back between bands.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { normalLongitude } from '@fieldcast/geo';
import {
  answeringSource,
  type BBox,
  type GridSource,
  type GridSpec,
  type GridWindow,
  isGlobalLon,
  lonInGrid,
  pixelCentre,
  pointGridSource,
  pointsSource,
  TILE_SIZE,
  type TimeRange,
  type VariableId,
  type When,
  withinCells,
} from '@fieldcast/weather';
import { NO_DATA } from './colorize.js';

export type SampleMode = 'linear' | 'discrete';

/** Pixel rows read together. */
const BAND_ROWS = 16;
/**
 * A point grid reads at most the 2 x 2 grid points around each pixel: a band whose window holds
 * more cells per pixel than that is read as a point grid where the source can.
 */
const POINT_GRID_CELLS_PER_PIXEL = 4;
/** Else a band is one window read while its window holds at most this many cells per pixel. */
const WINDOW_CELLS_PER_PIXEL = 32;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** Pixel-centre longitudes of a tile's columns and latitudes of its rows. */
export function pixelCentres(tile: TileAddress): { lons: Float64Array; lats: Float64Array } {
  const lons = new Float64Array(TILE_SIZE);
  const lats = new Float64Array(TILE_SIZE);
  for (let i = 0; i < TILE_SIZE; i++) {
    const c = pixelCentre(tile.z, tile.x, tile.y, i, i);
    lons[i] = c.lon;
    lats[i] = c.lat;
  }
  return { lons, lats };
}

/** The index range of grid points a band of coordinates needs along one axis. */
function axisRange(coords: Float64Array, from: number, to: number, origin: number, step: number, count: number, mode: SampleMode) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = from; k < to; k++) {
    const g = (coords[k]! - origin) / step;
    const a = mode === 'linear' ? Math.floor(g) : Math.round(g);
    const b = mode === 'linear' ? a + 1 : a;
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  }
  return { lo: Math.max(0, lo), hi: Math.min(count - 1, hi) };
}

/** The value at a fractional position of a window's single time step, or NO_DATA outside it. */
export function sampleWindow(w: GridWindow, lon: number, lat: number, mode: SampleMode): number {
  const nLat = w.lats.length;
  const nLon = w.lons.length;
  if (nLat === 0 || nLon === 0) return NO_DATA;
  const gy = (lat - w.lats[0]!) / w.dLat;
  // A window of a store kept in 0..360 comes in its longitudes: a pixel outside them is moved a
  // whole turn into them, as a point read's is (docs/decisions/0444-tiles-wrap-longitudes-into-the-grid.md).
  const gx = (lonInGrid({ lon0: w.lons[0]!, dLon: w.dLon, nLon }, lon) - w.lons[0]!) / w.dLon;
  // Within half a cell beyond the outermost points the edge value stands (no point to blend
  // with), in either mode, as a point read has it (withinCells).
  if (!withinCells(gy, nLat) || !withinCells(gx, nLon)) return NO_DATA;
  if (mode === 'discrete') {
    const { i, j } = nearestGridPoint(gridOfWindow(w), lon, lat);
    return w.values[i * nLon + j]!;
  }
  const clampAxis = (g: number, n: number): [number, number] => {
    if (n === 1) return [0, 0];
    const i0 = Math.min(n - 2, Math.max(0, Math.floor(g)));
    return [i0, Math.min(1, Math.max(0, g - i0))];
  };
  const [i0, fy] = clampAxis(gy, nLat);
  const [j0, fx] = clampAxis(gx, nLon);
  const i1 = nLat === 1 ? i0 : i0 + 1;
  const j1 = nLon === 1 ? j0 : j0 + 1;
  const v00 = w.values[i0 * nLon + j0]!;
  const v01 = w.values[i0 * nLon + j1]!;
  const v10 = w.values[i1 * nLon + j0]!;
  const v11 = w.values[i1 * nLon + j1]!;
  return (1 - fy) * ((1 - fx) * v00 + fx * v01) + fy * ((1 - fx) * v10 + fx * v11);
}

/** The grid a window's points lie on: its own first point, spacing and counts. */
export function gridOfWindow(w: GridWindow): GridSpec {
  return { lat0: w.lats[0]!, lon0: w.lons[0]!, dLat: w.dLat, dLon: w.dLon, nLat: w.lats.length, nLon: w.lons.length };
}

/**
 * The point of grid nearest (lon, lat): its indices, and its coordinates as point reads take them
 * (longitude in -180..180). The longitude is moved a whole turn into the grid's (lonInGrid); past
 * either end of a grid going all the way round the nearest column lies across its seam, as a point
 * read wraps there (isGlobalLon), else the edge one stands.
 */
export function nearestGridPoint(grid: GridSpec, lon: number, lat: number): { i: number; j: number; lon: number; lat: number } {
  const i = Math.min(grid.nLat - 1, Math.max(0, Math.round((lat - grid.lat0) / grid.dLat)));
  const k = Math.round((lonInGrid(grid, lon) - grid.lon0) / grid.dLon);
  const j = isGlobalLon(grid) ? ((k % grid.nLon) + grid.nLon) % grid.nLon : Math.min(grid.nLon - 1, Math.max(0, k));
  return { i, j, lon: normalLongitude(grid.lon0 + j * grid.dLon), lat: Math.max(-90, Math.min(90, grid.lat0 + i * grid.dLat)) };
}

/**
 * Where point reads of the pixel centres lats x lons on grid are taken: at the centres themselves
 * (bilinear by the source), or in `discrete` mode at each one's nearest grid point, the grid being
 * regular, along each axis apart.
 */
export function pointPlaces(
  grid: GridSpec,
  lats: Float64Array,
  lons: Float64Array,
  mode: SampleMode,
): { lats: Float64Array; lons: Float64Array } {
  if (mode === 'linear') return { lats, lons };
  const [lon0, lat0] = [lons[0] ?? 0, lats[0] ?? 0];
  return {
    lats: lats.map((lat) => nearestGridPoint(grid, lon0, lat).lat),
    lons: lons.map((lon) => nearestGridPoint(grid, lon, lat0).lon),
  };
}

/**
 * Where a pixel centre is read point-wise: from the source that answers a point read there (which
 * need not be the tile's, a store in front of the end of a composite's chain), at the centre or,
 * in `discrete` mode, at the nearest point of that source's grid, as a band's window is sampled on
 * the grid of the source that answers it. Read from that source directly, so the nearest point
 * never moves the read to another source
 * (docs/decisions/0453-discrete-pixels-read-on-the-answering-grid.md).
 */
export function pointPlace(
  source: GridSource,
  variable: VariableId,
  lon: number,
  lat: number,
  range: TimeRange,
  mode: SampleMode,
): { answering: GridSource; lon: number; lat: number } {
  const answering = answeringSource(source, variable, { lon, lat }, range);
  const at = pointPlaces(answering.grid, Float64Array.of(lat), Float64Array.of(lon), mode);
  return { answering, lon: at.lons[0]!, lat: at.lats[0]! };
}

/**
 * How a tile's values are read: a band's window at once, or one pixel centre at a time. The
 * window reader answers with the band's values as a function of a pixel centre, read from what it
 * fetched for the bbox (the grid points whose centres lie in it, a single time step), or null
 * where the pixel centres' point reads go to different sources (bandWindow): such a band is cut
 * into parts that `answering` finds one source for each (sampleTileWith). The point
 * readers take pixel centres in -180..180 and find, in `discrete` mode, each one's nearest grid
 * point on the grid of the source that answers it (pointPlace, pointPlaces).
 */
export interface TileReader {
  /** centres: the bbox of the band's pixel centres (default: bbox) */
  window(bbox: BBox, centres?: BBox): Promise<((lon: number, lat: number) => number) | null>;
  /**
   * The sources that answer the point reads of every pixel centre in centres (their bbox), one for
   * each field the reader reads, in one order; null where those of a field go to different
   * sources. Two parts of a band answered alike are read as one window.
   */
  answering(centres: BBox): readonly GridSource[] | null;
  /** the value at a pixel centre inside the globe (its nearest grid point in `discrete` mode) */
  point(lon: number, lat: number): Promise<number>;
  /**
   * What `point` gives at each of lats crossed with each of lons (row-major), in one read of the
   * grid points around them; null when the source reads these points one by one.
   */
  points(lats: Float64Array, lons: Float64Array): Promise<Float32Array | null>;
}

/** The bbox of the points lats x lons. */
export function bboxOfPoints(lats: Float64Array, lons: Float64Array): BBox {
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

/** A variable at one instant: slice reads for windows, point series for pixels. */
export function variableReader(source: GridSource, variable: VariableId, timeMs: number, mode: SampleMode): TileReader {
  const range = { startMs: timeMs, endMs: timeMs };
  return {
    async window(bbox, centres = bbox) {
      const band = bandWindow(source, variable, bbox, centres, { atMs: timeMs });
      if (!band) return null;
      const w = await band.answering.slice(variable, band.box, timeMs);
      return (lon, lat) => sampleWindow(w, lon, lat, mode);
    },
    answering(centres) {
      const answering = pointsSource(source, variable, centres, { atMs: timeMs });
      return answering && [answering];
    },
    async point(lon, lat) {
      const at = pointPlace(source, variable, lon, lat, range, mode);
      const series = await at.answering.pointSeries(variable, at.lon, at.lat, range);
      return series.values.length > 0 ? series.values[0]! : NO_DATA;
    },
    async points(lats, lons) {
      const reader = pointGridSource(source, [variable], bboxOfPoints(lats, lons), timeMs);
      if (!reader) return null;
      const at = pointPlaces(reader.grid, lats, lons, mode);
      const [values] = await reader.pointGrid([variable], at.lats, at.lons, timeMs);
      return values!.length > 0 ? values! : new Float32Array(lats.length * lons.length).fill(NO_DATA);
    },
  };
}

/** A band's window read: the source and the box. */
export interface BandWindow {
  answering: GridSource;
  box: BBox;
}

/**
 * Where a band's window of a variable is read: the source that answers the point reads at every
 * pixel centre of the band (centres, their bbox), which need not be the tile's (a store in front of
 * the end of a composite's chain, on whose grid the band is measured), over the bbox grown by one
 * of that source's cells. A window holds only the points inside its box, so the grown box holds the
 * answering grid's points around every pixel of the band (nearest, or the pair enclosing it); it is
 * read from that source directly, so growing the box never moves the band to another source
 * (docs/decisions/0451-tile-band-windows-on-the-answering-grid.md). Null where the pixel centres'
 * point reads go to different sources (a store's cells end inside the band): one window would
 * draw some pixels from a source that does not answer there
 * (docs/decisions/0481-a-band-across-a-stores-edge-is-read-per-place.md), so the band is read in
 * parts (docs/decisions/0484-a-band-across-a-stores-edge-is-read-as-windows.md).
 */
export function bandWindow(source: GridSource, variable: VariableId, bbox: BBox, centres: BBox, when: When): BandWindow | null {
  const answering = pointsSource(source, variable, centres, when);
  return answering && { answering, box: grownBox(bbox, answering.grid) };
}

/**
 * bbox grown by one cell of grid on every side, within the globe in the bbox's own longitudes: a
 * band of a grid kept in 0..360 is measured in them, east of 180 too.
 */
function grownBox([w, s, e, n]: BBox, grid: GridSpec): BBox {
  const dLon = Math.abs(grid.dLon);
  const dLat = Math.abs(grid.dLat);
  return [Math.max(Math.min(-180, w), w - dLon), Math.max(-90, s - dLat), Math.min(Math.max(180, e), e + dLon), Math.min(90, n + dLat)];
}

/**
 * The variable at every pixel centre of the tile at one instant, row-major from the top-left,
 * NO_DATA where the source has no grid point to give.
 */
export function sampleTile(
  source: GridSource,
  variable: VariableId,
  timeMs: number,
  tile: TileAddress,
  mode: SampleMode,
): Promise<Float32Array> {
  return sampleTileWith(source.grid, tile, mode, variableReader(source, variable, timeMs, mode));
}

/** A rectangle of a tile's pixels: columns c0 to c1 and rows r0 to r1, each end excluded. */
interface Part {
  c0: number;
  c1: number;
  r0: number;
  r1: number;
}

/** Whether two parts' point reads go to the same sources (TileReader.answering), or are both mixed. */
function answeredAlike(a: readonly GridSource[] | null, b: readonly GridSource[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((s, k) => s === b[k]);
}

/** The one grid of the sources that answer a part (TileReader.answering), or null where they are on different grids or mixed. */
function answeringGrid(answering: readonly GridSource[] | null): GridSpec | null {
  const first = answering?.[0]?.grid;
  if (!first) return null;
  const same = (g: GridSpec) =>
    g.lat0 === first.lat0 &&
    g.lon0 === first.lon0 &&
    g.dLat === first.dLat &&
    g.dLon === first.dLon &&
    g.nLat === first.nLat &&
    g.nLon === first.nLon;
  return answering!.every((s) => same(s.grid)) ? first : null;
}

/** Every pixel centre of the tile read through `reader`, band by band, row-major from the top-left. */
export async function sampleTileWith(grid: GridSpec, tile: TileAddress, mode: SampleMode, reader: TileReader): Promise<Float32Array> {
  const { lons, lats } = pixelCentres(tile);
  const out = new Float32Array(TILE_SIZE * TILE_SIZE);
  // A grid kept in 0..360 (across the antimeridian) takes a pixel centre moved a whole turn into its
  // longitudes, as its point reads do (lonInGrid, docs/decisions/0444-tiles-wrap-longitudes-into-the-grid.md);
  // a grid going all the way round reads the columns past its ends across its seam instead.
  const gridLons = isGlobalLon(grid) ? lons : lons.map((lon) => lonInGrid(grid, lon));
  const lonIn = gridLons.map((lon) => (isGlobalLon(grid) || withinCells((lon - grid.lon0) / grid.dLon, grid.nLon) ? 1 : 0));
  const seam = seamColumns(grid, lons, mode);
  const centresOf = (p: Part) => bboxOfPoints(lats.subarray(p.r0, p.r1), lons.subarray(p.c0, p.c1));
  // A point read refuses a point beyond the grid's cells (out_of_coverage): such a pixel has no
  // data, as a window read's has (sampleWindow).
  const readPointWise = async ({ c0, c1, r0, r1 }: Part) => {
    for (let r = r0; r < r1; r++) {
      const latIn = withinCells((lats[r]! - grid.lat0) / grid.dLat, grid.nLat);
      for (let c = c0; c < c1; c++) {
        out[r * TILE_SIZE + c] = latIn && lonIn[c] ? await reader.point(lons[c]!, lats[r]!) : NO_DATA;
      }
    }
  };
  /**
   * A part read as a band is: as one point grid, one window or point by point, by the cells under
   * it; where its pixels' point reads go to different sources, cut into parts (readAcross) where
   * `cut`, else read point by point.
   */
  const readPart = async (p: Part, cut: boolean) => {
    const { c0, c1, r0, r1 } = p;
    // The part is measured on the grid of what answers its pixel centres where that is one grid (a
    // store in front of the synthetic world, 0451): a coarse store's part is one window at zooms
    // where the world's fine grid would have it read point by point.
    const own = answeringGrid(reader.answering(centresOf(p))) ?? grid;
    const ownLons = own === grid ? gridLons : isGlobalLon(own) ? lons : lons.map((lon) => lonInGrid(own, lon));
    // Rows run north to south; the part's grid rows and columns are those around its pixel centres.
    const rows = axisRange(lats, r0, r1, own.lat0, own.dLat, own.nLat, mode);
    const cols = axisRange(ownLons, c0, c1, own.lon0, own.dLon, own.nLon, mode);
    const cells = (rows.hi - rows.lo + 1) * (cols.hi - cols.lo + 1);
    const pixels = (r1 - r0) * (c1 - c0);
    // Pixel centres, each read point-wise where its reader finds it (pointPlace).
    const partLats = lats.subarray(r0, r1);
    const partLons = lons.subarray(c0, c1);
    let values: Float32Array | null = null;
    if (rows.hi < rows.lo || cols.hi < cols.lo) {
      for (let r = r0; r < r1; r++) out.fill(NO_DATA, r * TILE_SIZE + c0, r * TILE_SIZE + c1);
    } else if (cells > POINT_GRID_CELLS_PER_PIXEL * pixels && (values = await reader.points(partLats, partLons))) {
      for (let r = r0; r < r1; r++) out.set(values.subarray((r - r0) * (c1 - c0), (r - r0 + 1) * (c1 - c0)), r * TILE_SIZE + c0);
    } else if (cells <= WINDOW_CELLS_PER_PIXEL * pixels) {
      // The grid points around the part and its pixel centres themselves (a discrete part's
      // nearest points may lie inside its outermost pixels), in the grid's longitudes: for a grid
      // kept in 0..360, past 180.
      const partGridLons = ownLons.subarray(c0, c1);
      const bbox: BBox = [
        Math.min(own.lon0 + cols.lo * own.dLon, ...partGridLons),
        Math.max(-90, Math.min(own.lat0 + rows.lo * own.dLat, lats[r1 - 1]!)),
        Math.max(own.lon0 + cols.hi * own.dLon, ...partGridLons),
        Math.min(90, Math.max(own.lat0 + rows.hi * own.dLat, lats[r0]!)),
      ];
      const valueAt = await reader.window(bbox, centresOf(p));
      if (!valueAt) {
        await (cut ? readAcross(p, true, false) : readPointWise(p));
      } else {
        for (let r = r0; r < r1; r++) {
          for (let c = c0; c < c1; c++) out[r * TILE_SIZE + c] = valueAt(lons[c]!, lats[r]!);
        }
        for (const c of seam) {
          if (c < c0 || c >= c1) continue;
          for (let r = r0; r < r1; r++) out[r * TILE_SIZE + c] = await reader.point(lons[c]!, lats[r]!);
        }
      }
    } else if (cut && !reader.answering(centresOf(p))) {
      // Past the windows' zooms too: a part of the synthetic world is one point grid.
      await readAcross(p, true, false);
    } else {
      await readPointWise(p);
    }
  };
  /**
   * A part whose pixel centres' point reads go to different sources, cut into runs of its columns
   * (or rows) whose pixels' reads each go to the same sources: a store's cells are one or two
   * rectangles (docs/decisions/0452-grid-cells-across-the-antimeridian.md), so a band across its
   * west or east edge cuts into runs of columns, and a run of columns across its north or south
   * edge, each of them mixed, into runs of rows. Each run answered alike is read as one part; a
   * mixed one is cut the other way; what is mixed both ways (`crossed`: cut the other way already
   * without a smaller part) is read point by point
   * (docs/decisions/0484-a-band-across-a-stores-edge-is-read-as-windows.md).
   */
  const readAcross = async (p: Part, byColumns: boolean, crossed: boolean): Promise<void> => {
    const lineOf = (k0: number, k1: number): Part => (byColumns ? { ...p, c0: k0, c1: k1 } : { ...p, r0: k0, r1: k1 });
    const [from, to] = byColumns ? [p.c0, p.c1] : [p.r0, p.r1];
    const runs: { from: number; to: number; answering: readonly GridSource[] | null }[] = [];
    for (let k = from; k < to; k++) {
      const answering = reader.answering(centresOf(lineOf(k, k + 1)));
      const last = runs.at(-1);
      if (last && answeredAlike(last.answering, answering)) last.to = k + 1;
      else runs.push({ from: k, to: k + 1, answering });
    }
    if (runs.length === 1 && runs[0]!.answering === null) {
      await (crossed ? readPointWise(p) : readAcross(p, !byColumns, true));
      return;
    }
    for (const run of runs) {
      const part = lineOf(run.from, run.to);
      if (run.answering === null) {
        await readAcross(part, !byColumns, false);
      } else if ((part.c1 - part.c0) * (part.r1 - part.r0) === 1) {
        // One pixel: its point read is one read, as a window would be.
        await readPointWise(part);
      } else if (answeredAlike(reader.answering(centresOf(part)), run.answering)) {
        await readPart(part, false);
      } else {
        // Lines answered alike whose bbox is not (another source's cells between two of them).
        for (let k = run.from; k < run.to; k++) await readPart(lineOf(k, k + 1), false);
      }
    }
  };
  for (let r0 = 0; r0 < TILE_SIZE; r0 += BAND_ROWS) {
    const r1 = Math.min(TILE_SIZE, r0 + BAND_ROWS);
    await readPart({ c0: 0, c1: TILE_SIZE, r0, r1 }, true);
    if (r1 < TILE_SIZE) await nextTurn();
  }
  return out;
}

/**
 * The columns of a tile that lie across the seam of a grid going all the way round in longitude
 * (east of its last column or west of its first, between the two, or nearer the other end's
 * column in `discrete` mode: a point read wraps there, isGlobalLon). A window read holds no column
 * beyond either end, so it cannot blend them; these pixels are read point-wise instead.
 */
function seamColumns(grid: GridSpec, lons: Float64Array, mode: SampleMode): number[] {
  if (!isGlobalLon(grid)) return [];
  const seam: number[] = [];
  for (let c = 0; c < lons.length; c++) {
    const g = (lons[c]! - grid.lon0) / grid.dLon;
    const k = mode === 'linear' ? g : Math.round(g);
    if (k < 0 || k > grid.nLon - 1) seam.push(c);
  }
  return seam;
}
