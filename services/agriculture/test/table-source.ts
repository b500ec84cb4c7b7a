import {
  SingleReadsSource,
  GridRequestError,
  type BBox,
  type GridSource,
  type GridWindow,
  type PointSeries,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '@fieldcast/weather';

const DAY_MS = 86_400_000;

/** Daily Tmax and Tmin of one cell, one entry per day from the table's first day. */
export interface CellTemperatures {
  tmax: number[];
  tmin: number[];
}

/**
 * A hand-made GridSource for hand-computable tests: 1 degree cells centred on x.5 degrees, daily
 * extremes from a table keyed "lat,lon" of cell centres, every other cell at `otherwise`.
 * pointSeries is bilinear between the four surrounding centres, as the GridSource contract says,
 * across the antimeridian too (the columns go round the globe).
 */
export class TableSource extends SingleReadsSource implements GridSource {
  readonly id = 'table';
  readonly label = 'table';
  readonly grid = { lat0: -89.5, lon0: -179.5, dLat: 1, dLon: 1, nLat: 180, nLon: 360 };
  /** every call, for asserting how the service reads */
  readonly calls: string[] = [];

  constructor(
    private readonly firstDayMs: number,
    private readonly cells: Record<string, CellTemperatures>,
    private readonly otherwise: { tmax: number; tmin: number },
    private readonly coverageEndMs: number,
  ) {
    super();
  }

  coverage(): TimeRange {
    return { startMs: Date.UTC(2015, 0, 1), endMs: this.coverageEndMs };
  }

  variables(): VariableInfo[] {
    return (['air_temperature_daily_max', 'air_temperature_daily_min'] as const).map((id) => ({
      id,
      standardName: 'air_temperature',
      cellMethods: '',
      units: 'degC',
      description: id,
      stepMs: DAY_MS,
    }));
  }

  private value(variable: VariableId, i: number, j: number, dayMs: number): number {
    // The grid goes round the globe: column 360 is column 0 (bilinear across the antimeridian).
    const key = `${this.grid.lat0 + i},${this.grid.lon0 + (((j % 360) + 360) % 360)}`;
    const cell = this.cells[key];
    const max = variable === 'air_temperature_daily_max';
    if (!cell) return max ? this.otherwise.tmax : this.otherwise.tmin;
    const day = Math.round((dayMs - this.firstDayMs) / DAY_MS);
    const v = (max ? cell.tmax : cell.tmin)[day];
    if (v === undefined) throw new Error(`table has no day ${day} for ${key}`);
    return v;
  }

  private days(range: TimeRange): number[] {
    if (range.startMs < this.coverage().startMs || range.endMs > this.coverageEndMs) {
      throw new GridRequestError('out_of_coverage', `the table covers days up to ${new Date(this.coverageEndMs).toISOString()}`);
    }
    const out: number[] = [];
    for (let t = Math.ceil(range.startMs / DAY_MS) * DAY_MS; t <= range.endMs; t += DAY_MS) out.push(t);
    return out;
  }

  async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    this.calls.push(`pointSeries ${variable}`);
    const days = this.days(range);
    const y = lat - this.grid.lat0,
      x = lon - this.grid.lon0;
    const i = Math.floor(y),
      j = Math.floor(x);
    const fy = y - i,
      fx = x - j;
    const values = Float32Array.from(
      days,
      (d) =>
        (1 - fy) * (1 - fx) * this.value(variable, i, j, d) +
        (1 - fy) * fx * this.value(variable, i, j + 1, d) +
        fy * (1 - fx) * this.value(variable, i + 1, j, d) +
        fy * fx * this.value(variable, i + 1, j + 1, d),
    );
    return { variable, units: 'degC', startMs: days[0] ?? range.startMs, stepMs: DAY_MS, values, productOf: () => 'table' };
  }

  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    this.calls.push(`window ${variable}`);
    const days = this.days(range);
    const [w, s, e, n] = bbox;
    const is: number[] = [],
      js: number[] = [];
    for (let i = 0; i < this.grid.nLat; i++) if (this.grid.lat0 + i >= s && this.grid.lat0 + i <= n) is.push(i);
    for (let j = 0; j < this.grid.nLon; j++) if (this.grid.lon0 + j >= w && this.grid.lon0 + j <= e) js.push(j);
    const values = new Float32Array(days.length * is.length * js.length);
    let k = 0;
    for (const d of days) for (const i of is) for (const j of js) values[k++] = this.value(variable, i, j, d);
    return {
      variable,
      units: 'degC',
      lats: Float64Array.from(is, (i) => this.grid.lat0 + i),
      lons: Float64Array.from(js, (j) => this.grid.lon0 + j),
      dLat: 1,
      dLon: 1,
      startMs: days[0] ?? range.startMs,
      stepMs: DAY_MS,
      nt: days.length,
      values,
      productOf: () => 'table',
    };
  }

  async slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    const day = Math.floor(timeMs / DAY_MS) * DAY_MS;
    return this.window(variable, bbox, { startMs: day, endMs: day });
  }
}
