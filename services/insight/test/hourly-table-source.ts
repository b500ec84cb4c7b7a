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

const HOUR_MS = 3_600_000;

/** A value of a variable at a cell centre and an hour. */
export type CellValue = (variable: VariableId, lat: number, lon: number, timeMs: number) => number;

const UNITS: Partial<Record<VariableId, string>> = {
  air_temperature: 'degC',
  dew_point_temperature: 'degC',
  surface_downwelling_shortwave_flux_in_air: 'W m-2',
  wind_speed: 'm s-1',
  surface_air_pressure: 'kPa',
  surface_altitude: 'm',
};

/**
 * A hand-made GridSource, hourly unless told another step, for hand-computable tests: 1 degree cells centred on x.5 degrees,
 * every value from `value`; points bilinear between the four surrounding centres (the GridSource
 * contract). Hours before `boundaryMs` come from "table-analysis", later ones from
 * "table-forecast". `calls` records each read and its range.
 */
export class HourlyTableSource extends SingleReadsSource implements GridSource {
  readonly id = 'hourly-table';
  readonly label = 'hourly-table';
  readonly grid = { lat0: -89.5, lon0: -179.5, dLat: 1, dLon: 1, nLat: 180, nLon: 360 };
  readonly calls: string[] = [];

  constructor(
    private readonly value: CellValue,
    private readonly boundaryMs: number,
    private readonly windDescription = 'Wind speed at 2 m',
    /** false: a source without surface_altitude (the service then reads the height from pressure) */
    private readonly withAltitude = true,
    /** the time between stamps: an hour, or longer for a store that is not hourly */
    private readonly stepMs = HOUR_MS,
  ) {
    super();
  }

  coverage(): TimeRange {
    return { startMs: Date.UTC(2015, 0, 1), endMs: this.boundaryMs + 16 * 24 * HOUR_MS };
  }

  variables(): VariableInfo[] {
    return (Object.keys(UNITS) as VariableId[])
      .filter((id) => this.withAltitude || id !== 'surface_altitude')
      .map((id) => ({
        id,
        standardName: id,
        cellMethods: '',
        units: UNITS[id]!,
        description: id === 'wind_speed' ? this.windDescription : id,
        stepMs: id === 'surface_altitude' ? 0 : this.stepMs,
      }));
  }

  private hours(variable: VariableId, range: TimeRange): number[] {
    const c = this.coverage();
    if (range.startMs < c.startMs || range.endMs > c.endMs) throw new GridRequestError('out_of_coverage', 'outside the table');
    if (variable === 'surface_altitude') return [range.startMs];
    const out: number[] = [];
    for (let t = Math.ceil(range.startMs / this.stepMs) * this.stepMs; t <= range.endMs; t += this.stepMs) out.push(t);
    return out;
  }

  private productOf = (times: number[]) => (i: number) => ((times[i] ?? Infinity) <= this.boundaryMs ? 'table-analysis' : 'table-forecast');

  async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    this.calls.push(`pointSeries ${variable} ${new Date(range.startMs).toISOString()} ${new Date(range.endMs).toISOString()}`);
    const times = this.hours(variable, range);
    const y = lat - this.grid.lat0,
      x = lon - this.grid.lon0;
    const i = Math.floor(y),
      j = Math.floor(x);
    const fy = y - i,
      fx = x - j;
    const at = (ii: number, jj: number, t: number) => this.value(variable, this.grid.lat0 + ii, this.grid.lon0 + jj, t);
    const values = Float32Array.from(
      times,
      (t) =>
        (1 - fy) * (1 - fx) * at(i, j, t) +
        (1 - fy) * fx * at(i, j + 1, t) +
        fy * (1 - fx) * at(i + 1, j, t) +
        fy * fx * at(i + 1, j + 1, t),
    );
    return {
      variable,
      units: UNITS[variable]!,
      startMs: times[0]!,
      stepMs: variable === 'surface_altitude' ? 0 : this.stepMs,
      values,
      productOf: this.productOf(times),
    };
  }

  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    this.calls.push(`window ${variable} ${new Date(range.startMs).toISOString()} ${new Date(range.endMs).toISOString()}`);
    const times = this.hours(variable, range);
    const [w, s, e, n] = bbox;
    const lats: number[] = [],
      lons: number[] = [];
    for (let i = 0; i < this.grid.nLat; i++) if (this.grid.lat0 + i >= s && this.grid.lat0 + i <= n) lats.push(this.grid.lat0 + i);
    for (let j = 0; j < this.grid.nLon; j++) if (this.grid.lon0 + j >= w && this.grid.lon0 + j <= e) lons.push(this.grid.lon0 + j);
    const values = new Float32Array(times.length * lats.length * lons.length);
    let k = 0;
    for (const t of times) for (const lat of lats) for (const lon of lons) values[k++] = this.value(variable, lat, lon, t);
    return {
      variable,
      units: UNITS[variable]!,
      lats: Float64Array.from(lats),
      lons: Float64Array.from(lons),
      dLat: 1,
      dLon: 1,
      startMs: times[0]!,
      stepMs: variable === 'surface_altitude' ? 0 : this.stepMs,
      nt: times.length,
      values,
      productOf: this.productOf(times),
    };
  }

  async slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    const t = Math.floor(timeMs / this.stepMs) * this.stepMs;
    return this.window(variable, bbox, { startMs: t, endMs: t });
  }
}
