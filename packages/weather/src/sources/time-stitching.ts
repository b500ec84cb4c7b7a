/**
 * Time stitching of stores on one grid (docs/decisions/0018-serving-ingested-stores.md, revised
 * by 0295): a range that no single store holds is answered step by step from the first of the
 * stores on the same grid, with the same time step and phase, that holds each step. A synced
 * source is such a set (its newest run, its analysis, its older runs), so a season to date
 * that runs into the forecast reads the analysis up to the run's start and the run after it,
 * each value naming its own product (spec 2.7). Stores on different grids are never stitched:
 * one series would mix interpolations and biases.
 */
import { SingleReadsSource } from '../grid/batched-reads.js';
import {
  type BBox,
  GridRequestError,
  type GridSource,
  type GridSpec,
  type GridWindow,
  type PointSeries,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '../grid/grid-source.js';
import type { ZarrSource } from '../zarr/zarr-source.js';

/** The steps [startMs, endMs] (inclusive) a piece reads from its store. */
interface Piece {
  store: ZarrSource;
  range: TimeRange;
}

export function sameGrid(a: GridSpec, b: GridSpec): boolean {
  return a.lat0 === b.lat0 && a.lon0 === b.lon0 && a.dLat === b.dLat && a.dLon === b.dLon && a.nLat === b.nLat && a.nLon === b.nLon;
}

/**
 * The pieces that read every step of the range from `stores` (in order of preference), each step
 * from the first store whose axis holds it (one piece when one store holds them all); null when a
 * step is held by none, or when the stores' axes differ in step, phase, units or time cell from the first's.
 */
export function planReads(stores: readonly ZarrSource[], variable: VariableId, range: TimeRange): Piece[] | null {
  const axes = stores.map((s) => s.arrayFor(variable));
  const first = axes[0];
  if (!first?.time || first.time.stepMs <= 0 || !(range.startMs <= range.endMs)) return null;
  const { stepMs } = first.time;
  for (const a of axes) {
    if (!a?.time || a.time.stepMs !== stepMs || a.units !== first.units) return null;
    // One series has one time cell (grid-source.ts PointSeries.timeCell).
    if (a.time.cell?.[0] !== first.time.cell?.[0] || a.time.cell?.[1] !== first.time.cell?.[1]) return null;
    if ((((a.time.startMs - first.time.startMs) % stepMs) + stepMs) % stepMs !== 0) return null;
  }
  const phase = first.time.startMs;
  const t0 = phase + Math.ceil((range.startMs - phase) / stepMs) * stepMs;
  const pieces: Piece[] = [];
  for (let t = t0; t <= range.endMs; t += stepMs) {
    const k = axes.findIndex((a) => t >= a!.time!.startMs && t <= a!.time!.startMs + (a!.time!.length - 1) * stepMs);
    if (k < 0) return null;
    const last = pieces.at(-1);
    if (last && last.store === stores[k]) last.range.endMs = t;
    else pieces.push({ store: stores[k]!, range: { startMs: t, endMs: t } });
  }
  return pieces.length > 0 ? pieces : null;
}

/** The piece holding step index `i` of the stitched axis, and the index within it. */
function locate<T extends { length: number }>(parts: readonly T[], i: number): [T, number] {
  let offset = i;
  for (const part of parts) {
    if (offset < part.length) return [part, offset];
    offset -= part.length;
  }
  return [parts.at(-1)!, offset + parts.at(-1)!.length];
}

/**
 * Stores on one grid read as one: each read planned by planReads. CompositeSource.sourceFor gives
 * one for a request no single store holds and these stores do together.
 */
export class StitchedSource extends SingleReadsSource implements GridSource {
  readonly id: string;
  readonly label: string;
  readonly grid: GridSpec;

  /** stores on one grid, in order of preference */
  constructor(readonly stores: readonly ZarrSource[]) {
    super();
    this.grid = stores[0]!.grid;
    this.id = stores.map((s) => s.id).join('+');
    this.label = stores.map((s) => s.label).join(' + ');
  }

  private pieces(variable: VariableId, range: TimeRange): Piece[] {
    const pieces = planReads(this.stores, variable, range);
    if (!pieces) throw new GridRequestError('out_of_coverage', `${variable}: the stores ${this.id} do not hold every step of the range`);
    return pieces;
  }

  coverage(): TimeRange {
    const each = this.stores.map((s) => s.coverage());
    return { startMs: Math.min(...each.map((c) => c.startMs)), endMs: Math.max(...each.map((c) => c.endMs)) };
  }

  variables(): VariableInfo[] {
    return this.stores[0]!.variables();
  }

  async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    const parts = await Promise.all(this.pieces(variable, range).map((p) => p.store.pointSeries(variable, lon, lat, p.range)));
    const lengths = parts.map((series) => ({ series, length: series.values.length }));
    return {
      ...parts[0]!,
      values: concat(parts.map((s) => s.values)),
      productOf: (i) => {
        const [part, k] = locate(lengths, i);
        return part.series.productOf(k);
      },
    };
  }

  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    const parts = await Promise.all(this.pieces(variable, range).map((p) => p.store.window(variable, bbox, p.range)));
    const lengths = parts.map((window) => ({ window, length: window.nt }));
    return {
      ...parts[0]!,
      nt: parts.reduce((n, w) => n + w.nt, 0),
      values: concat(parts.map((w) => w.values)),
      productOf: (i) => {
        const [part, k] = locate(lengths, i);
        return part.window.productOf(k);
      },
    };
  }

  /** One step is always one store's: the first that holds it. */
  slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.pieces(variable, { startMs: timeMs, endMs: timeMs })[0]!.store.slice(variable, bbox, timeMs);
  }
}

function concat(arrays: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}
