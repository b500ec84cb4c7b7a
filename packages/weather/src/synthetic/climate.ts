/**
 * Temperature climatology of the synthetic world: zonal mean, seasonal cycle, lapse rate and the
 * smooth day-to-day anomaly. Curves are smooth fits chosen to land near familiar zonal means
 * (about 27-29 degC at the equator, 13 degC at 45 degrees, -17 degC at the poles; January-July
 * differences of ~2 K in the tropics, ~20 K at 45 degrees, ~40 K near the poles, cf. Peixoto and
 * Oort 1992, "Physics of Climate", ch. 7); they are a plausible demo world, not a reanalysis.
 */
import { noiseField } from './noise.js';

/** Environmental lapse rate of the ICAO standard atmosphere (ICAO Doc 7488), K per m. */
export const LAPSE_RATE_K_PER_M = 0.0065;

/** Day of year of the warmest day in the northern hemisphere: ~4 weeks after the solstice. */
const WARMEST_DAY_OF_YEAR = 200;

/** Mean tropical year, days. */
const TROPICAL_YEAR_DAYS = 365.2422;

/** Days from 1970-01-01 to 2000-01-01, so the seasonal phase is anchored to a fixed calendar. */
const DAYS_1970_TO_2000 = 10957;

/** Annual mean temperature at sea level, degC. */
export function seaLevelMeanTemperature(latDeg: number): number {
  return 29 - 46 * Math.pow(Math.abs(latDeg) / 90, 1.7);
}

/**
 * Signed half-range of the seasonal cycle, K: positive in the north so the cycle peaks in July
 * there and in January in the south; zero at the equator so the field stays continuous.
 */
export function seasonalAmplitude(latDeg: number): number {
  const a = 21 * Math.pow(Math.abs(latDeg) / 90, 1.2);
  return latDeg < 0 ? -a : a;
}

/** Seasonal phase term in [-1, 1] at time t (hours since 1970), +1 on the NH warmest day. */
export function seasonalPhase(tHours: number): number {
  const doy = tHours / 24 - DAYS_1970_TO_2000;
  return Math.cos((2 * Math.PI * (doy - WARMEST_DAY_OF_YEAR)) / TROPICAL_YEAR_DAYS);
}

/** Day-to-day variability grows toward the poles (storm tracks, polar air outbreaks). */
export function anomalyScale(latDeg: number): number {
  return 0.45 + 0.9 * (Math.abs(latDeg) / 90);
}

/**
 * Synoptic temperature anomaly, K before `anomalyScale`: weather systems of ~900 km lasting ~4
 * days plus ~280 km features of ~1.5 days (spec: correlated over hundreds of km and a few days).
 */
export const TEMPERATURE_ANOMALY = noiseField([
  { spacingDeg: 8, periodHours: 96, amplitude: 4, seed: 0x7a01 },
  { spacingDeg: 2.5, periodHours: 36, amplitude: 2, seed: 0x7a02 },
]);

/** Local hour (mean solar time) of the daily maximum temperature. */
export const TMAX_LOCAL_HOUR = 15;

/**
 * Diurnal temperature range, K: large under clear skies, small under cloud (cloud traps
 * longwave at night and cuts shortwave by day), damped when days are short.
 */
export function diurnalRange(cloud: number, dayLengthHours: number): number {
  const light = Math.min(1, dayLengthHours / 12);
  return (3 + 11 * (1 - cloud)) * (0.35 + 0.65 * light);
}
