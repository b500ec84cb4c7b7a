/**
 * The batched reads of GridSource (both daily extremes, the five ET inputs) built on its single
 * reads: the implementation for a source that computes each variable on its own (a Zarr store
 * reads each variable's own arrays), so batching gains nothing there. The reads run concurrently.
 */
import {
  type BBox,
  type DailyExtremes,
  ET_INPUT_KEYS,
  ET_INPUT_VARIABLES,
  type EtInputs,
  type GridSource,
  type GridWindow,
  type PointSeries,
  type TimeRange,
  type VariableId,
} from './grid-source.js';

type SingleReads = Pick<GridSource, 'pointSeries' | 'window'>;

export async function dailyExtremesAtBySingleReads(
  source: SingleReads,
  lon: number,
  lat: number,
  range: TimeRange,
): Promise<DailyExtremes<PointSeries>> {
  const [tmax, tmin] = await Promise.all([
    source.pointSeries('air_temperature_daily_max', lon, lat, range),
    source.pointSeries('air_temperature_daily_min', lon, lat, range),
  ]);
  return { tmax, tmin };
}

export async function dailyExtremesInBySingleReads(source: SingleReads, bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
  const [tmax, tmin] = await Promise.all([
    source.window('air_temperature_daily_max', bbox, range),
    source.window('air_temperature_daily_min', bbox, range),
  ]);
  return { tmax, tmin };
}

export async function etInputsAtBySingleReads(
  source: SingleReads,
  lon: number,
  lat: number,
  range: TimeRange,
): Promise<EtInputs<PointSeries>> {
  const series = await Promise.all(ET_INPUT_KEYS.map((k) => source.pointSeries(ET_INPUT_VARIABLES[k], lon, lat, range)));
  return etInputsOf(series);
}

export async function etInputsInBySingleReads(source: SingleReads, bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
  const windows = await Promise.all(ET_INPUT_KEYS.map((k) => source.window(ET_INPUT_VARIABLES[k], bbox, range)));
  return etInputsOf(windows);
}

function etInputsOf<T>(values: T[]): EtInputs<T> {
  return Object.fromEntries(ET_INPUT_KEYS.map((k, i) => [k, values[i]])) as unknown as EtInputs<T>;
}

/**
 * A GridSource whose batched reads are its single reads (a Zarr store, a source stitched from
 * stores, a test's table): it writes only pointSeries, window and slice.
 */
export abstract class SingleReadsSource implements SingleReads {
  abstract pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries>;
  abstract window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow>;

  dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    return dailyExtremesAtBySingleReads(this, lon, lat, range);
  }

  dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    return dailyExtremesInBySingleReads(this, bbox, range);
  }

  etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>> {
    return etInputsAtBySingleReads(this, lon, lat, range);
  }

  etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
    return etInputsInBySingleReads(this, bbox, range);
  }
}
