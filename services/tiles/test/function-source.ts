import {
  SingleReadsSource,
  type BBox,
  type GridSource,
  type GridWindow,
  type PointSeries,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '@fieldcast/weather';

const HOUR_MS = 3_600_000;

/**
 * A hand-made GridSource for hand-computable tiles: hourly variables given as functions of a
 * grid point's (lon, lat), the same at every hour, on a global grid of `cell` degrees whose points
 * start at -180/-90. Point reads are bilinear between the four surrounding points, as the
 * GridSource contract says. A read has a step at each whole hour of its range (a range within one
 * hour: one at its start), so a reader of an hour's mean finds the stamps it asks.
 */
export class FunctionSource extends SingleReadsSource implements GridSource {
  readonly id = 'function';
  readonly label = 'function';
  readonly grid;
  readonly calls = { window: 0, point: 0 };

  constructor(
    private readonly fields: Partial<Record<VariableId, (lon: number, lat: number) => number>>,
    readonly cell = 0.5,
  ) {
    super();
    this.grid = { lat0: -90, lon0: -180, dLat: cell, dLon: cell, nLat: Math.round(180 / cell) + 1, nLon: Math.round(360 / cell) };
  }

  coverage(): TimeRange {
    return { startMs: Date.UTC(2015, 0, 1), endMs: Date.now() + 20 * 24 * HOUR_MS };
  }

  variables(): VariableInfo[] {
    return (Object.keys(this.fields) as VariableId[]).map((id) => ({
      id,
      standardName: id,
      cellMethods: '',
      units: '1',
      description: id,
      stepMs: HOUR_MS,
    }));
  }

  private at(variable: VariableId, i: number, j: number): number {
    const f = this.fields[variable]!;
    return f(this.grid.lon0 + (((j % this.grid.nLon) + this.grid.nLon) % this.grid.nLon) * this.cell, this.grid.lat0 + i * this.cell);
  }

  async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    this.calls.point++;
    const y = (lat - this.grid.lat0) / this.cell;
    const x = (lon - this.grid.lon0) / this.cell;
    const i = Math.min(this.grid.nLat - 2, Math.floor(y));
    const j = Math.floor(x);
    const fy = y - i;
    const fx = x - j;
    const v =
      (1 - fy) * (1 - fx) * this.at(variable, i, j) +
      (1 - fy) * fx * this.at(variable, i, j + 1) +
      fy * (1 - fx) * this.at(variable, i + 1, j) +
      fy * fx * this.at(variable, i + 1, j + 1);
    const { startMs, nt } = stepsOf(range);
    return { variable, units: '1', startMs, stepMs: HOUR_MS, values: new Float32Array(nt).fill(v), productOf: () => 'function' };
  }

  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    this.calls.window++;
    const [w, s, e, n] = bbox;
    const i0 = Math.ceil((s - this.grid.lat0) / this.cell - 1e-9);
    const i1 = Math.floor((n - this.grid.lat0) / this.cell + 1e-9);
    const j0 = Math.ceil((w - this.grid.lon0) / this.cell - 1e-9);
    const j1 = Math.min(this.grid.nLon - 1, Math.floor((e - this.grid.lon0) / this.cell + 1e-9));
    const lats = Float64Array.from({ length: Math.max(0, i1 - i0 + 1) }, (_, k) => this.grid.lat0 + (i0 + k) * this.cell);
    const lons = Float64Array.from({ length: Math.max(0, j1 - j0 + 1) }, (_, k) => this.grid.lon0 + (j0 + k) * this.cell);
    const { startMs, nt } = stepsOf(range);
    const cells = lats.length * lons.length;
    const values = new Float32Array(nt * cells);
    for (let a = 0; a < lats.length; a++)
      for (let b = 0; b < lons.length; b++) values[a * lons.length + b] = this.at(variable, i0 + a, j0 + b);
    for (let k = 1; k < nt; k++) values.copyWithin(k * cells, 0, cells);
    return {
      variable,
      units: '1',
      lats,
      lons,
      dLat: this.cell,
      dLon: this.cell,
      startMs,
      stepMs: HOUR_MS,
      nt,
      values,
      productOf: () => 'function',
    };
  }

  slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.window(variable, bbox, { startMs: timeMs, endMs: timeMs });
  }
}

/** The steps of a read: each whole hour of the range, or its start where it holds none. */
function stepsOf(range: TimeRange): { startMs: number; nt: number } {
  const first = Math.ceil(range.startMs / HOUR_MS) * HOUR_MS;
  if (first > range.endMs) return { startMs: range.startMs, nt: 1 };
  return { startMs: first, nt: Math.floor((range.endMs - first) / HOUR_MS) + 1 };
}
