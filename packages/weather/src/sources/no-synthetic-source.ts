/**
 * The end of the chain of sources when the synthetic world is off (FIELDCAST_SYNTHETIC=off,
 * docs/decisions/0256-synthetic-off.md): it holds nothing, so a request that no store before it
 * covers is refused with `not_synced` instead of being answered by the synthetic world.
 */
import {
  type BBox,
  type DailyExtremes,
  type EtInputs,
  type GridSource,
  type GridSpec,
  type GridWindow,
  GridRequestError,
  type PointSeries,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '../grid/grid-source.js';

const iso = (ms: number) => new Date(ms).toISOString();

export class NoSyntheticSource implements GridSource {
  readonly id = 'none';
  readonly label = 'no synthetic world';
  /** One degree cells: the grid of a source that has no cells; never read. */
  readonly grid: GridSpec = { lat0: -90, lon0: -180, dLat: 1, dLon: 1, nLat: 181, nLon: 360 };

  coverage(): TimeRange {
    // An empty range: start after end.
    return { startMs: 0, endMs: -1 };
  }

  variables(): VariableInfo[] {
    return [];
  }

  private refuse(what: string, range?: TimeRange): never {
    const when = range ? ` for ${iso(range.startMs)}..${iso(range.endMs)}` : '';
    throw new GridRequestError(
      'not_synced',
      `No synced or ingested store holds ${what}${when}, and the synthetic world is off (FIELDCAST_SYNTHETIC=off)`,
    );
  }

  pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    return this.refuse(`${variable} at ${lat}, ${lon}`, range);
  }

  window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    return this.refuse(`${variable} in ${bbox.join(',')}`, range);
  }

  slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.refuse(`${variable} in ${bbox.join(',')}`, { startMs: timeMs, endMs: timeMs });
  }

  dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    return this.refuse(`daily temperature extremes at ${lat}, ${lon}`, range);
  }

  dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    return this.refuse(`daily temperature extremes in ${bbox.join(',')}`, range);
  }

  etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>> {
    return this.refuse(`the inputs of evapotranspiration at ${lat}, ${lon}`, range);
  }

  etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
    return this.refuse(`the inputs of evapotranspiration in ${bbox.join(',')}`, range);
  }
}
