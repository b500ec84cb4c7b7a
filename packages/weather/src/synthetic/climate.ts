/**
 * Temperature climatology of the synthetic world shared by every cell: the lapse rate, the phase
 * of the year, the day-to-day anomaly and the diurnal range. The annual mean and cycle of each
 * place come from its geography (geoclimate.ts, docs/architecture.md §6).
 */
import { noiseField } from './noise.js';

/** Environmental lapse rate of the ICAO standard atmosphere (ICAO Doc 7488), K per m. */
export const LAPSE_RATE_K_PER_M = 0.0065;

/** Mean tropical year, days. */
export const TROPICAL_YEAR_DAYS = 365.2422;

/** Days from 1970-01-01 to 2000-01-01, so the seasonal phase is anchored to a fixed calendar. */
const DAYS_1970_TO_2000 = 10957;

/**
 * Angle of the year at time t (hours since 1970), radians: 2 pi x days since 2000-01-01 / year.
 * A cell's seasonal term is cos(angle) x seasonCos + sin(angle) x seasonSin (geoclimate.ts).
 */
export function yearAngle(tHours: number): number {
  return (2 * Math.PI * (tHours / 24 - DAYS_1970_TO_2000)) / TROPICAL_YEAR_DAYS;
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
 * longwave at night and cuts shortwave by day), damped when days are short (`damping`, from
 * daylightDamping) and near the sea (`maritime`, from maritimeDamping).
 */
export function diurnalRange(cloud: number, damping: number, maritime: number): number {
  return (3 + 11 * (1 - cloud)) * damping * maritime;
}

/** diurnalRange's damping by the length of the day, 0.35 (polar night) to 1 (12 hours or more). */
export function daylightDamping(dayLengthHours: number): number {
  const light = Math.min(1, dayLengthHours / 12);
  return 0.35 + 0.65 * light;
}

/**
 * Maritime damping of the diurnal range, 0.25 (open sea: water stores the day's heat) to 1
 * (inland), halfway within ~35 km of the coast.
 */
export function maritimeDamping(land: number, coastKm: number): number {
  const inland = coastKm > 0 ? 1 - 0.5 * Math.exp(-coastKm / 50) : 0.5;
  return 0.25 + 0.75 * land * inland;
}
