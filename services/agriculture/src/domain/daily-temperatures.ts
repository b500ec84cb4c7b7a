import { InvalidRequestError } from '@fieldcast/kit';
import { answeringSource, GridRequestError, type BBox, type GridSource, type GridSpec, type GridWindow, type PointSeries, type Place, type TimeRange, type VariableId } from '@fieldcast/weather';

const TMAX: VariableId = 'air_temperature_daily_max';
const TMIN: VariableId = 'air_temperature_daily_min';

/** Sources with synchronous reads (SyntheticSource): no promise per read in the hot path. */
interface SyncReads {
  pointSeriesSync(variable: VariableId, lon: number, lat: number, range: TimeRange): PointSeries;
  windowSync(variable: VariableId, bbox: BBox, range: TimeRange): GridWindow;
}

function hasSyncReads(source: GridSource): source is GridSource & SyncReads {
  const s = source as Partial<SyncReads>;
  return typeof s.pointSeriesSync === 'function' && typeof s.windowSync === 'function';
}

/** Sources that compute both daily extremes in one pass (SyntheticSource: one set of anchors). */
interface PairedReads {
  dailyExtremesSync(lon: number, lat: number, range: TimeRange): DailyExtremes<PointSeries>;
  windowExtremesSync(bbox: BBox, range: TimeRange): DailyExtremes<GridWindow>;
}

function hasPairedReads(source: GridSource): source is GridSource & PairedReads {
  const s = source as Partial<PairedReads>;
  return typeof s.dailyExtremesSync === 'function' && typeof s.windowExtremesSync === 'function';
}

/**
 * A routing source (CompositeSource: ingested stores before the synthetic world) answers each
 * read from one of its sources. When both extremes come from the same one, that one is read
 * directly so its fast paths above apply; otherwise the two reads go through the router.
 */
function pairSource(source: GridSource, place: Place, days: TimeRange): GridSource {
  const tmax = answeringSource(source, TMAX, place, days);
  return tmax === answeringSource(source, TMIN, place, days) ? tmax : source;
}

/** The grid daily extremes over this bbox come on (a routing source's chosen source's grid). */
export function dailyGrid(source: GridSource, bbox: BBox, days: TimeRange): GridSpec {
  return answeringSource(source, TMAX, { bbox }, days).grid;
}

/** A GridRequestError is the caller's fault (issue 4): 400 with its code as the problem id. */
function asRequestError(err: unknown): unknown {
  return err instanceof GridRequestError ? new InvalidRequestError(err.code, err.message) : err;
}

export interface DailyExtremes<T> {
  tmax: T;
  tmin: T;
}

/**
 * Daily maximum and minimum temperature at a point, bilinear in space (GridSource.pointSeries),
 * for every day of the range (daily values are stamped 00:00Z of their date, DESIGN.md section 6).
 * Days past the forecast boundary come from the forecast product; nothing is clipped.
 */
export async function dailyExtremesAt(routed: GridSource, lon: number, lat: number, days: TimeRange): Promise<DailyExtremes<PointSeries>> {
  try {
    const source = pairSource(routed, { lon, lat }, days);
    if (hasPairedReads(source)) return source.dailyExtremesSync(lon, lat, days);
    if (hasSyncReads(source)) return { tmax: source.pointSeriesSync(TMAX, lon, lat, days), tmin: source.pointSeriesSync(TMIN, lon, lat, days) };
    const [tmax, tmin] = await Promise.all([source.pointSeries(TMAX, lon, lat, days), source.pointSeries(TMIN, lon, lat, days)]);
    return { tmax, tmin };
  } catch (err) {
    throw asRequestError(err);
  }
}

/** Daily extremes on the cells whose centres lie in bbox: one window read per variable. */
export async function dailyExtremesIn(routed: GridSource, bbox: BBox, days: TimeRange): Promise<DailyExtremes<GridWindow>> {
  try {
    const source = pairSource(routed, { bbox }, days);
    if (hasPairedReads(source)) return source.windowExtremesSync(bbox, days);
    if (hasSyncReads(source)) return { tmax: source.windowSync(TMAX, bbox, days), tmin: source.windowSync(TMIN, bbox, days) };
    const [tmax, tmin] = await Promise.all([source.window(TMAX, bbox, days), source.window(TMIN, bbox, days)]);
    return { tmax, tmin };
  } catch (err) {
    throw asRequestError(err);
  }
}
