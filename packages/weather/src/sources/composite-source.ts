/**
 * CompositeSource: one GridSource over an ordered list of sources, ingested Zarr stores first
 * and the synthetic world last (docs/architecture.md §2 and §6: weather data is "synthetic, or Zarr
 * stores"). Each request is answered whole by the first source that covers it: the variable,
 * every time step of the range and the point or bbox, or by stores on one grid stitched in time
 * (time-stitching.ts). A request that no store covers, alone or stitched, goes to the last
 * source, which answers or refuses it with its own GridRequestError
 * (docs/decisions/0018-serving-ingested-stores.md, 0295-time-stitching-on-one-grid.md).
 * Results are the chosen source's own, so `productOf` names the store's product for
 * stored values and the synthetic products otherwise (the spec's `products` arrays).
 */
import {
  dailyExtremesAtBySingleReads,
  dailyExtremesInBySingleReads,
  etInputsAtBySingleReads,
  etInputsInBySingleReads,
} from '../grid/batched-reads.js';
import {
  type BBox,
  type DailyExtremes,
  ET_INPUT_VARIABLES,
  type EtInputs,
  type GridSource,
  type GridSpec,
  type GridWindow,
  placeOfPoint,
  type PointSeries,
  readsSubgrids,
  type SubgridReads,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '../grid/grid-source.js';
import { ZarrSource } from '../zarr/zarr-source.js';
import { planReads, sameGrid, StitchedSource } from './time-stitching.js';

/** Where a request reads: a point, or the cells whose centres lie in a bbox. */
export type Place = { lon: number; lat: number } | { bbox: BBox };

/** When a request reads: every step of a range (pointSeries, window) or the step at or before an instant (slice). */
export type When = TimeRange | { atMs: number };

/** A source that answers each request from one of several; callers may ask which (e.g. to use its fast paths). */
export interface RoutingSource extends GridSource {
  sourceFor(variable: VariableId, place: Place, when: When): GridSource;
  /** The source that answers the point reads at every point of bbox, or null when they route apart. */
  sourceForPointsIn(variable: VariableId, bbox: BBox, when: When): GridSource | null;
}

export function isRoutingSource(source: GridSource): source is RoutingSource {
  return typeof (source as Partial<RoutingSource>).sourceFor === 'function';
}

/** The source that would answer this request: the routed one for a RoutingSource, else the source itself. */
export function answeringSource(source: GridSource, variable: VariableId, place: Place, when: When): GridSource {
  return isRoutingSource(source) ? source.sourceFor(variable, place, when) : source;
}

/**
 * The source that answers the point reads of the variable at every point of bbox: the routed one
 * for a RoutingSource (null when they route apart), else the source itself.
 */
export function pointsSource(source: GridSource, variable: VariableId, bbox: BBox, when: When): GridSource | null {
  return isRoutingSource(source) ? source.sourceForPointsIn(variable, bbox, when) : source;
}

/**
 * The source that reads together (SubgridReads: pointGrid at an instant, dailyExtremesAtPoints
 * over a range) what point reads of each of the variables at every point of bbox would give: the
 * one source every such point read goes to, when it reads sub-grids; null when the points route
 * apart or it reads point by point.
 */
export function pointGridSource(
  source: GridSource,
  variables: readonly VariableId[],
  bbox: BBox,
  when: number | TimeRange,
): (GridSource & SubgridReads) | null {
  const range = typeof when === 'number' ? { startMs: when, endMs: when } : when;
  const each = variables.map((v) => pointsSource(source, v, bbox, range));
  const one = each[0];
  return one && each.every((s) => s === one) && readsSubgrids(one) ? one : null;
}

/** A time axis start + k*step, k = 0..length-1 (stepMs 0: one step of unknown length). */
interface Axis {
  startMs: number;
  stepMs: number;
  length: number;
}

/** Does the axis hold every one of its steps that falls in the range, and at least one? */
function axisCoversRange(a: Axis, r: TimeRange): boolean {
  if (!(r.startMs <= r.endMs)) return false;
  if (a.stepMs <= 0) return r.startMs === a.startMs && r.endMs === a.startMs;
  const k0 = Math.ceil((r.startMs - a.startMs) / a.stepMs);
  const k1 = Math.floor((r.endMs - a.startMs) / a.stepMs);
  return k0 <= k1 && k0 >= 0 && k1 <= a.length - 1;
}

/** Does the axis hold the step at or before atMs (ZarrSource.slice's rule)? */
function axisCoversInstant(a: Axis, atMs: number): boolean {
  if (a.stepMs <= 0) return atMs === a.startMs;
  const k = Math.floor((atMs - a.startMs) / a.stepMs);
  return k >= 0 && k <= a.length - 1;
}

/** Outer cell edges of a grid, degrees (cell centres are the grid points, grid-source.ts). */
function edges(g: GridSpec): { south: number; north: number; west: number; east: number; globalLon: boolean } {
  return {
    south: g.lat0 - g.dLat / 2,
    north: g.lat0 + (g.nLat - 0.5) * g.dLat,
    west: g.lon0 - g.dLon / 2,
    east: g.lon0 + (g.nLon - 0.5) * g.dLon,
    globalLon: Math.abs(g.nLon * g.dLon - 360) < 1e-6 * 360,
  };
}

/**
 * Is the place inside the grid? A point must lie within its outer cell edges (as ZarrSource
 * reads it: an edge cell's value up to its outer edge). A bbox may reach one cell past them:
 * the areas grow a field's bbox by half a cell to one cell to catch every cell that touches it
 * (agriculture growing-degree-days.ts), and a field inside the store must stay with the store.
 * Longitudes are tried a whole turn either way, for grids kept in 0..360. A point is taken at its
 * place's coordinates (placeOfPoint), as the sources read it, so a pole goes to one source.
 */
function gridCovers(g: GridSpec, place: Place): boolean {
  const e = edges(g);
  if ('bbox' in place) {
    const [w, s, east, n] = place.bbox;
    if (![w, s, east, n].every(Number.isFinite) || !(w <= east) || !(s <= n)) return false;
    if (s < e.south - g.dLat || n > e.north + g.dLat) return false;
    if (e.globalLon) return true;
    return [0, 360, -360].some((shift) => w + shift >= e.west - g.dLon && east + shift <= e.east + g.dLon);
  }
  const { lon, lat } = placeOfPoint(place.lon, place.lat);
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || lat < e.south || lat > e.north) return false;
  if (e.globalLon) return true;
  return [0, 360, -360].some((shift) => lon + shift >= e.west && lon + shift <= e.east);
}

/**
 * Where the points of bbox lie against the grid's outer cell edges (gridCovers' rule for a
 * point): every one inside, some inside, or none.
 */
function pointsInGrid(g: GridSpec, [w, s, east, n]: BBox): 'all' | 'some' | 'none' {
  const e = edges(g);
  if (n < e.south || s > e.north) return 'none';
  const latsInside = s >= e.south && n <= e.north;
  if (e.globalLon) return latsInside ? 'all' : 'some';
  const shifts = [0, 360, -360];
  if (latsInside && shifts.some((shift) => w + shift >= e.west && east + shift <= e.east)) return 'all';
  return shifts.some((shift) => east + shift >= e.west && w + shift <= e.east) ? 'some' : 'none';
}

/** Does this source hold the variable at every time the request reads? */
function timeCovers(source: GridSource, variable: VariableId, when: When): boolean {
  if (source instanceof ZarrSource) {
    // Per array: a store's variables may have time axes of their own.
    const array = source.arrayFor(variable);
    if (!array) return false;
    if (!array.time) return true;
    return 'atMs' in when ? axisCoversInstant(array.time, when.atMs) : axisCoversRange(array.time, when);
  }
  if (!source.variables().some((v) => v.id === variable)) return false;
  const c = source.coverage();
  return 'atMs' in when ? c.startMs <= when.atMs && when.atMs <= c.endMs : c.startMs <= when.startMs && when.endMs <= c.endMs;
}

/** The variables a daily-extremes read takes, and an ET-inputs read: a store answers one only with all of them. */
export const DAILY_EXTREMES: readonly VariableId[] = ['air_temperature_daily_max', 'air_temperature_daily_min'];
export const ET_INPUTS: readonly VariableId[] = Object.values(ET_INPUT_VARIABLES);

export interface CompositeSourceOptions {
  /** default: the sources' ids joined with "+" */
  id?: string;
  /** default: the sources' labels joined with " + " */
  label?: string;
}

export class CompositeSource implements RoutingSource {
  readonly id: string;
  readonly label: string;
  /**
   * The last source's grid: the only one that spans everything the composite answers (the
   * world, for the synthetic fallback). A window comes on the grid of the source that answered
   * it (its lats, lons, dLat, dLon say which cells); sourceFor(...).grid gives that grid ahead
   * of a read.
   */
  readonly grid: GridSpec;
  readonly sources: readonly GridSource[];

  /** sources in order of preference; the last is the fallback and answers whatever the others do not cover */
  constructor(sources: GridSource[], options: CompositeSourceOptions = {}) {
    const last = sources[sources.length - 1];
    if (!last) throw new Error('CompositeSource needs at least one source');
    this.sources = [...sources];
    this.grid = last.grid;
    this.id = options.id ?? sources.map((s) => s.id).join('+');
    this.label = options.label ?? sources.map((s) => s.label).join(' + ');
  }

  /**
   * The first source that covers the variable, every time the request reads and the place, or
   * that stitches the range with the stores after it on its grid (time-stitching.ts); else the
   * last one.
   */
  sourceFor(variable: VariableId, place: Place, when: When): GridSource {
    const n = this.sources.length;
    for (let k = 0; k < n - 1; k++) {
      if (!gridCovers(this.sources[k]!.grid, place)) continue;
      const s = this.answeringFrom(k, variable, when);
      if (s) return s;
    }
    return this.sources[n - 1]!;
  }

  /** The k-th source where it holds the variable at every time read, or the stores from it on stitched where they do together; else undefined. */
  private answeringFrom(k: number, variable: VariableId, when: When): GridSource | undefined {
    const s = this.sources[k]!;
    if (timeCovers(s, variable, when)) return s;
    if ('atMs' in when) return undefined; // one step is one store's
    const stitched = this.stitchedFrom(k);
    return stitched && (planReads(stitched.stores, variable, when)?.length ?? 0) > 1 ? stitched : undefined;
  }

  private readonly stitched = new Map<number, StitchedSource | undefined>();

  /** The stores from the k-th on, before the fallback, on its grid (when it is a store): one per k, so reads routed alike are one source. */
  private stitchedFrom(k: number): StitchedSource | undefined {
    if (!this.stitched.has(k)) {
      const first = this.sources[k];
      const group =
        first instanceof ZarrSource
          ? this.sources.slice(k, -1).filter((s): s is ZarrSource => s instanceof ZarrSource && sameGrid(s.grid, first.grid))
          : [];
      this.stitched.set(k, group.length > 1 ? new StitchedSource(group) : undefined);
    }
    return this.stitched.get(k);
  }

  /**
   * A point goes to the first source that holds it (sourceFor, stitched stores too): every point
   * of bbox goes to one source when that source holds them all and no source before it holds any.
   */
  sourceForPointsIn(variable: VariableId, bbox: BBox, when: When): GridSource | null {
    const n = this.sources.length;
    for (let k = 0; k < n - 1; k++) {
      const s = this.answeringFrom(k, variable, when);
      if (!s) continue;
      const inside = pointsInGrid(this.sources[k]!.grid, bbox);
      if (inside === 'all') return s;
      if (inside === 'some') return null;
    }
    return this.sources[n - 1]!;
  }

  /** From the earliest start to the latest end of any source (the fallback's range is answered everywhere). */
  coverage(): TimeRange {
    let startMs = Infinity;
    let endMs = -Infinity;
    for (const s of this.sources) {
      const c = s.coverage();
      startMs = Math.min(startMs, c.startMs);
      endMs = Math.max(endMs, c.endMs);
    }
    return { startMs, endMs };
  }

  /** Every variable of any source, described by the first source that has it. */
  variables(): VariableInfo[] {
    const seen = new Map<VariableId, VariableInfo>();
    for (const s of this.sources) for (const v of s.variables()) if (!seen.has(v.id)) seen.set(v.id, v);
    return [...seen.values()];
  }

  pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    return this.sourceFor(variable, { lon, lat }, range).pointSeries(variable, lon, lat, range);
  }

  window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    return this.sourceFor(variable, { bbox }, range).window(variable, bbox, range);
  }

  slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.sourceFor(variable, { bbox }, { atMs: timeMs }).slice(variable, bbox, timeMs);
  }

  /**
   * A batched read goes whole to one source when every variable it reads routes there (so that
   * source's own batched read applies); otherwise each variable is read from its own source.
   */
  dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    const one = this.soleSource(DAILY_EXTREMES, { lon, lat }, range);
    return one ? one.dailyExtremesAt(lon, lat, range) : dailyExtremesAtBySingleReads(this, lon, lat, range);
  }

  dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    const one = this.soleSource(DAILY_EXTREMES, { bbox }, range);
    return one ? one.dailyExtremesIn(bbox, range) : dailyExtremesInBySingleReads(this, bbox, range);
  }

  etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>> {
    const one = this.soleSource(ET_INPUTS, { lon, lat }, range);
    return one ? one.etInputsAt(lon, lat, range) : etInputsAtBySingleReads(this, lon, lat, range);
  }

  etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
    const one = this.soleSource(ET_INPUTS, { bbox }, range);
    return one ? one.etInputsIn(bbox, range) : etInputsInBySingleReads(this, bbox, range);
  }

  /** The source that answers every one of the variables here, or null when they route apart. */
  private soleSource(variables: readonly VariableId[], place: Place, when: When): GridSource | null {
    const first = this.sourceFor(variables[0]!, place, when);
    return variables.every((v) => this.sourceFor(v, place, when) === first) ? first : null;
  }

  /** Closes every source that holds files or cached chunks (ZarrSource). */
  async close(): Promise<void> {
    await Promise.all(this.sources.map((s) => (s as { close?: () => Promise<void> }).close?.()));
  }
}
