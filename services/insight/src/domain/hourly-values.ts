import {
  CarriedCloudiness,
  CLOUDINESS_CARRY_HOURS,
  type HourlyReferenceEtInput,
  dayOfYear,
  hourlyReferenceEt,
  relativeHumidity,
  saturationVapourPressureTetens,
  wattsPerSquareMetreToMegajoulesPerHour,
} from '@fieldcast/science';
import { type MeanWeights, weightedValue } from '@fieldcast/weather';

export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Hours of weather read before a series' first hour, so its first night and dawn carry the fcd of
 * a real evening (docs/decisions/0110-low-sun-cloudiness.md): as far back as any hour looks, so
 * an hour's value is the same whichever series it is read in.
 */
export const ET_LEAD_HOURS = CLOUDINESS_CARRY_HOURS;

/**
 * One place's hourly weather as the source gives it: values stamped at whole hours, the hour
 * before `k` at index k of each array, read as `values[offset + k * stride]` (a point series has
 * stride 1; a window cell is strided by the cells of a time step).
 */
export interface HourlyInputs {
  offset: number;
  stride: number;
  /** air temperature, °C */
  temperature: ArrayLike<number>;
  /** dewpoint, °C */
  dewpoint: ArrayLike<number>;
  /**
   * incoming shortwave, W m-2: each input hour's mean from the weights of the source's stamps
   * (`hourWeights` of @fieldcast/weather, whatever interval a stamp's mean covers), the stamps
   * read as `values[offset + j * stride]`
   */
  shortwave?: { values: ArrayLike<number>; offset: number; hours: readonly (MeanWeights | null)[] };
  /** wind speed, m s-1, at `windHeight` */
  windSpeed?: ArrayLike<number>;
}

/**
 * The hour a series entry covers is [validTime, validTime + 1 h) (docs/decisions/0111-hourly-series.md).
 * The source stamps temperature, dewpoint and wind at the instant, so each of them over the hour
 * is the mean of the two stamps that bound it, the trapezoid rule; the shortwave is a mean over an
 * interval the source states, so its hour comes from the weights of its stamps
 * (docs/decisions/0379-time-cells-of-mean-rates.md).
 */
const hourMean = (values: ArrayLike<number>, at: number, stride: number) => ((values[at] as number) + (values[at + stride] as number)) / 2;

/**
 * Relative humidity (%) of `n` hours from input index `first` (Bolton 1980, via @fieldcast/science
 * relativeHumidity): from the hour's mean temperature and dewpoint. Writes out[0..n-1].
 */
export function relativeHumidityHours(inputs: HourlyInputs, first: number, n: number, out: Float64Array): void {
  const { offset, stride, temperature, dewpoint } = inputs;
  for (let h = 0; h < n; h++) {
    const at = offset + (first + h) * stride;
    out[h] = relativeHumidity(hourMean(temperature, at, stride), hourMean(dewpoint, at, stride));
  }
}

export interface EtSite {
  latitude: number;
  longitude: number;
  /** m; pressure and clear-sky radiation follow it (ASCE-EWRI 2005 eqs. 3, 47) */
  elevation: number;
  /** anemometer height of the source's wind, m (converted with ASCE-EWRI 2005 eq. 33) */
  windHeight: number;
}

/**
 * ASCE-EWRI 2005 standardized hourly short-crop ETos (mm/h) of `n` hours from input index `first`,
 * where input index 0 is the hour starting at `inputStartMs`. The hours before `first` are run
 * only to carry their fcd into the first night and dawn (CarriedCloudiness). Vapour pressure is
 * e°(dewpoint) with the standard's Tetens form (eq. 8); the clock is UTC (standard meridian 0)
 * and each hour's sun is taken at its midpoint. Writes out[0..n-1]; negative hours (dew) stay.
 */
export function evapotranspirationHours(
  inputs: HourlyInputs,
  site: EtSite,
  inputStartMs: number,
  first: number,
  n: number,
  out: Float64Array,
): void {
  const { offset, stride, temperature, dewpoint, shortwave, windSpeed } = inputs;
  if (!shortwave || !windSpeed) throw new Error('evapotranspiration needs shortwave and wind');
  const carried = new CarriedCloudiness();
  // One input object, its hour's members set in place: hourlyReferenceEt keeps nothing of it, and
  // an asset series calls it millions of times.
  const hour: HourlyReferenceEtInput = {
    temperature: 0,
    actualVapourPressure: 0,
    solarRadiation: 0,
    windSpeed: 0,
    windHeight: site.windHeight,
    elevation: site.elevation,
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
    hour.carriedCloudiness = carried.value;
    const r = hourlyReferenceEt(hour);
    carried.observe(r);
    if (k >= first) out[k - first] = r.et;
  }
}
