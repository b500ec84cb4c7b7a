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
import { gridExtent } from '../grid/grid-extent.js';
import { DAILY_EXTREMES, ET_INPUTS } from './composite-source.js';
import { SYNTHETIC_GRID } from '../synthetic/synthetic-source.js';

const iso = (ms: number) => new Date(ms).toISOString();

export class NoSyntheticSource implements GridSource {
  readonly id = 'none';
  readonly label = 'no synthetic world';
  /**
   * Never read, but the grid of the composite it ends, from which the areas take what depends on
   * the weather's resolution (frames' zoom levels, a tile's bands): the synthetic world's, so a
   * fleet serves its stores alike with the synthetic world on or off (the README's zoom-7 tile of
   * a synced frame is no 400 here).
   */
  readonly grid: GridSpec = SYNTHETIC_GRID;

  /**
   * @param stores the stores in front of it, which a refusal names with what they hold
   * (docs/decisions/0498-synthetic-off-refusals-name-what-is-held.md); unnamed when not given
   */
  constructor(private readonly stores?: readonly GridSource[]) {}

  coverage(): TimeRange {
    // An empty range: start after end.
    return { startMs: 0, endMs: -1 };
  }

  variables(): VariableInfo[] {
    return [];
  }

  /** What the stores that have all of `variables` hold, to follow a refusal; nothing when the stores are not known. */
  private held(variables: readonly VariableId[]): string {
    if (!this.stores) return '';
    if (this.stores.length === 0) return '; no store is synced or ingested';
    const holding = this.stores.filter((s) => variables.every((variable) => s.variables().some((v) => v.id === variable)));
    if (holding.length === 0) return `; no store holds ${variables.join(' and ')}`;
    const extents = holding.map((s) => {
      const { box, time } = gridExtent(s);
      return `${s.id} (${box}, ${time})`;
    });
    return `; the stores hold ${extents.join(', ')}`;
  }

  /**
   * Refuses a read, naming it and what the stores hold, so the caller learns where and when to ask
   * instead: a rejected promise, as every read answers, not a throw a caller's catch misses.
   */
  private refuse(what: string, range: TimeRange, variables: readonly VariableId[]): Promise<never> {
    return Promise.reject(
      new GridRequestError(
        'not_synced',
        `No synced or ingested store holds ${what} for ${iso(range.startMs)}..${iso(range.endMs)}, and the synthetic world is off (FIELDCAST_SYNTHETIC=off)${this.held(variables)}`,
      ),
    );
  }

  pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    return this.refuse(`${variable} at ${lat}, ${lon}`, range, [variable]);
  }

  window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    return this.refuse(`${variable} in ${bbox.join(',')}`, range, [variable]);
  }

  slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.refuse(`${variable} in ${bbox.join(',')}`, { startMs: timeMs, endMs: timeMs }, [variable]);
  }

  dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    return this.refuse(`daily temperature extremes at ${lat}, ${lon}`, range, DAILY_EXTREMES);
  }

  dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    return this.refuse(`daily temperature extremes in ${bbox.join(',')}`, range, DAILY_EXTREMES);
  }

  etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>> {
    return this.refuse(`the inputs of evapotranspiration at ${lat}, ${lon}`, range, ET_INPUTS);
  }

  etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
    return this.refuse(`the inputs of evapotranspiration in ${bbox.join(',')}`, range, ET_INPUTS);
  }
}
