/**
 * The hourly short-crop reference ET the ET product serves (docs/interface.md §5, insight's
 * hourly series): ASCE-EWRI 2005 standardized hourly ETos of consecutive hours, each hour
 * [h, h + 1 h) from the mean of its weather, with the night and low-sun cloudiness carried from
 * the hours before (docs/decisions/0110-low-sun-cloudiness.md). One computation, read by the
 * insight area's series and the alerts area's reference-ET rules, so an alert measures what the
 * product answers for the same hours.
 */
import {
  CarriedCloudiness,
  CLOUDINESS_CARRY_HOURS,
  dayOfYear,
  type HourlyReferenceEtInput,
  hourlyReferenceEt,
  saturationVapourPressureTetens,
  wattsPerSquareMetreToMegajoulesPerHour,
} from '@fieldcast/science';
import { GridRequestError, type GridSource, type GridWindow, placeOfPoint, type PointSeries, type TimeRange } from '../grid/grid-source.js';
import { hourWeights, type MeanWeights, weightedValue } from '../grid/time-cells.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Hours of weather read before a series' first hour, so its first night and dawn carry the fcd of
 * a real evening (docs/decisions/0110-low-sun-cloudiness.md): as far back as any hour looks, so
 * an hour's value is the same whichever series it is read in.
 */
export const ET_LEAD_HOURS = CLOUDINESS_CARRY_HOURS;

/**
 * A refusal of the weather an ET series reads (a store that does not reach back, the synthetic
 * world off), with why the hours it names start before the first hour asked; anything else as it is.
 */
export function etLeadRefusal(err: unknown): unknown {
  if (!(err instanceof GridRequestError) || err.code !== 'not_synced') return err;
  return new GridRequestError(
    err.code,
    `${err.message}. Short-crop ET of an hour reads the weather from ${ET_LEAD_HOURS} hours before the first hour asked (the night's cloudiness is the evening's, ASCE-EWRI 2005 eq. 45)`,
  );
}

/**
 * One place's hourly ET weather as the source gives it: values stamped at whole hours, the hour
 * before `k` at index k of each array, read as `values[offset + k * stride]` (a point series has
 * stride 1; a window cell is strided by the cells of a time step).
 */
export interface EtHourlyInputs {
  offset: number;
  stride: number;
  /** air temperature, °C */
  temperature: ArrayLike<number>;
  /** dewpoint, °C */
  dewpoint: ArrayLike<number>;
  /**
   * incoming shortwave, W m-2: each input hour's mean from the weights of the source's stamps
   * (`hourWeights`, whatever interval a stamp's mean covers), the stamps read as
   * `values[offset + j * stride]`
   */
  shortwave?: { values: ArrayLike<number>; offset: number; hours: readonly (MeanWeights | null)[] };
  /** wind speed, m s-1, at `windHeight` */
  windSpeed?: ArrayLike<number>;
  /**
   * surface pressure, kPa, for a site without an elevation: its stamps read as
   * `values[offset + k * stride]`, the stride the other instants'
   */
  pressure?: { values: ArrayLike<number>; offset: number };
}

export interface EtSite {
  latitude: number;
  longitude: number;
  /**
   * m; pressure and clear-sky radiation follow it (ASCE-EWRI 2005 eqs. 3, 47). Undefined for a
   * source without ground height: each hour then takes the height its own pressure implies
   * (`inputs.pressure`, docs/decisions/0475-et-height-from-the-hours-pressure.md).
   */
  elevation: number | undefined;
  /** anemometer height of the source's wind, m (converted with ASCE-EWRI 2005 eq. 33) */
  windHeight: number;
}

/**
 * The hour a value covers is [h, h + 1 h) (docs/decisions/0111-hourly-series.md). The source
 * stamps temperature, dewpoint and wind at the instant, so each of them over the hour is the mean
 * of the two stamps that bound it, the trapezoid rule; the shortwave is a mean over an interval the
 * source states, so its hour comes from the weights of its stamps
 * (docs/decisions/0379-time-cells-of-mean-rates.md).
 */
export const hourMean = (values: ArrayLike<number>, at: number, stride: number) =>
  ((values[at] as number) + (values[at + stride] as number)) / 2;

/**
 * ASCE-EWRI 2005 standardized hourly short-crop ETos (mm/h) of `n` hours from input index `first`,
 * where input index 0 is the hour starting at `inputStartMs`. The hours before `first` are run
 * only to carry their fcd into the first night and dawn (CarriedCloudiness). Vapour pressure is
 * e°(dewpoint) with the standard's Tetens form (eq. 8); the clock is UTC (standard meridian 0)
 * and each hour's sun is taken at its midpoint. Writes out[0..n-1]; negative hours (dew) stay.
 */
export function evapotranspirationHours(
  inputs: EtHourlyInputs,
  site: EtSite,
  inputStartMs: number,
  first: number,
  n: number,
  out: Float64Array,
): void {
  const { offset, stride, temperature, dewpoint, shortwave, windSpeed, pressure } = inputs;
  if (!shortwave || !windSpeed) throw new Error('evapotranspiration needs shortwave and wind');
  if (site.elevation === undefined && !pressure) throw new Error('evapotranspiration needs an elevation or the surface pressure');
  const carried = new CarriedCloudiness();
  // One input object, its hour's members set in place: hourlyReferenceEt keeps nothing of it, and
  // an asset series calls it millions of times.
  const hour: HourlyReferenceEtInput = {
    temperature: 0,
    actualVapourPressure: 0,
    solarRadiation: 0,
    windSpeed: 0,
    windHeight: site.windHeight,
    elevation: site.elevation ?? 0,
    latitude: site.latitude,
    longitude: site.longitude,
    dayOfYear: 0,
    midpointHour: 0,
  };
  let doyDay = Number.NaN;
  for (let k = 0; k < first + n; k++) {
    const at = offset + k * stride;
    const mid = inputStartMs + k * HOUR_MS + HOUR_MS / 2;
    const day = Math.floor(mid / DAY_MS);
    if (day !== doyDay) {
      doyDay = day;
      hour.dayOfYear = dayOfYear(new Date(mid));
    }
    hour.temperature = hourMean(temperature, at, stride);
    hour.actualVapourPressure = saturationVapourPressureTetens(hourMean(dewpoint, at, stride));
    const rs = weightedValue(shortwave.values, shortwave.hours[k] ?? null, shortwave.offset, stride);
    hour.solarRadiation = wattsPerSquareMetreToMegajoulesPerHour(Math.max(0, rs));
    hour.windSpeed = Math.max(0, hourMean(windSpeed, at, stride));
    hour.midpointHour = (mid - day * DAY_MS) / HOUR_MS;
    if (site.elevation === undefined)
      hour.elevation = elevationFromPressure(hourMean(pressure!.values, pressure!.offset + k * stride, stride));
    hour.carriedCloudiness = carried.value;
    const r = hourlyReferenceEt(hour);
    carried.observe(r);
    if (k >= first) out[k - first] = r.et;
  }
}

/**
 * Ground height from surface pressure (kPa), the inverse of ASCE-EWRI 2005 eq. 3
 * (P = 101.3 ((293 - 0.0065 z) / 293)^5.26): z = 293 (1 - (P / 101.3)^(1 / 5.26)) / 0.0065. Used
 * only where a source has no surface_altitude, with the pressure of the hour (the mean of its two
 * stamps), so an hour's value is the same in every series and alert that reads it
 * (docs/decisions/0475-et-height-from-the-hours-pressure.md). At least 0 m: high
 * pressure at the coast would otherwise read as ground below sea level; 0 without a value.
 */
export function elevationFromPressure(kPa: number): number {
  if (!(Number.isFinite(kPa) && kPa > 0)) return 0;
  return Math.max(0, (293 * (1 - Math.pow(kPa / 101.3, 1 / 5.26))) / 0.0065);
}

/** The height of the source's wind, from its variable's description ("Wind speed at 10 m"); 2 m when it names none. */
export function windHeightOf(source: GridSource): number {
  const info = source.variables().find((v) => v.id === 'wind_speed');
  const m = /\bat (\d+(?:\.\d+)?) ?m\b/.exec(info?.description ?? '');
  return m ? Number(m[1]) : 2;
}

/**
 * The weights of the shortwave's stamps for each input hour from inputStartMs, by the interval its
 * source's means cover (`hourWeights`, docs/decisions/0379-time-cells-of-mean-rates.md).
 */
export function shortwaveHours(read: PointSeries | GridWindow, inputStartMs: number, hours: number): (MeanWeights | null)[] {
  const length = 'nt' in read ? read.nt : read.values.length;
  return hourWeights({ startMs: read.startMs, stepMs: read.stepMs, length, timeCell: read.timeCell }, inputStartMs, hours);
}

/** The ground height at a point (surface_altitude); undefined where the source has none, and the pressure then stands in. */
async function pointElevation(source: GridSource, lon: number, lat: number, range: TimeRange): Promise<number | undefined> {
  if (!source.variables().some((v) => v.id === 'surface_altitude')) return undefined;
  const s = await source.pointSeries('surface_altitude', lon, lat, { startMs: range.startMs, endMs: range.startMs });
  const z = s.values[0];
  // Below sea level (the Dead Sea shore) is a height too: eq. 3 holds there.
  return z !== undefined && Number.isFinite(z) ? z : undefined;
}

/** The short-crop ET of hours at a point, and the temperature read whose stamps they follow (for its products). */
export interface PointEtHours {
  /** mm h-1 of each hour from the first asked; NaN where the source has no value */
  values: Float64Array;
  airTemperature: PointSeries;
  /** index in airTemperature of the stamp at the first hour asked */
  first: number;
}

/**
 * The short-crop ET (mm h-1) of `hours` hours from firstMs at a point, bilinear between grid points:
 * the inputs read from ET_LEAD_HOURS before the first hour to the end of the last (its closing
 * stamp), the ground height from surface_altitude or else each hour's pressure, the wind at the
 * height its source names. Every value is NaN when the read lacks some of those stamps (the
 * source does not reach that far); null when the source's step is not hourly, which this hour by
 * hour computation does not read.
 */
export async function shortCropEtHoursAt(
  source: GridSource,
  lon: number,
  lat: number,
  firstMs: number,
  hours: number,
): Promise<PointEtHours | null> {
  const lead = ET_LEAD_HOURS;
  const range = { startMs: firstMs - lead * HOUR_MS, endMs: firstMs + hours * HOUR_MS };
  const [inputs, elevation] = await Promise.all([source.etInputsAt(lon, lat, range), pointElevation(source, lon, lat, range)]).catch(
    (err: unknown) => {
      throw etLeadRefusal(err);
    },
  );
  const t = inputs.airTemperature;
  if (t.stepMs !== HOUR_MS) return null;
  const k0 = Math.round((range.startMs - t.startMs) / HOUR_MS);
  const values = new Float64Array(hours);
  if (k0 < 0 || t.values.length < k0 + lead + hours + 1)
    return { values: values.fill(Number.NaN), airTemperature: t, first: Math.max(0, k0) + lead };
  // The sun's hour angle follows the longitude: read at the place's (placeOfPoint), as the weather is.
  const place = placeOfPoint(lon, lat);
  const site: EtSite = { latitude: place.lat, longitude: place.lon, elevation, windHeight: windHeightOf(source) };
  const p = inputs.pressure;
  evapotranspirationHours(
    {
      offset: k0,
      stride: 1,
      temperature: t.values,
      dewpoint: inputs.dewpoint.values,
      shortwave: { values: inputs.shortwave.values, offset: 0, hours: shortwaveHours(inputs.shortwave, range.startMs, lead + hours) },
      windSpeed: inputs.windSpeed.values,
      pressure: { values: p.values, offset: Math.round((range.startMs - p.startMs) / HOUR_MS) },
    },
    site,
    range.startMs,
    lead,
    hours,
    values,
  );
  return { values, airTemperature: t, first: k0 + lead };
}
