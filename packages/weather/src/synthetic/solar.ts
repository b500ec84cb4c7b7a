/**
 * Solar geometry and clear-sky radiation for the synthetic world, from ASCE-EWRI (2005)
 * "The ASCE Standardized Reference Evapotranspiration Equation", Appendix B / section 4
 * (the same formulas as FAO-56, Allen et al. 1998, chapter 3). Equation numbers below are those
 * of ASCE-EWRI 2005. Kept in this package because @fieldcast/science did not export solar
 * geometry when this was written; the formulas are identical, so the two agree.
 */

import { dayOfYearOf } from './calendar.js';

/** Solar constant, MJ m-2 min-1 (ASCE-EWRI 2005 eq. 21). */
export const SOLAR_CONSTANT = 0.082;

/** MJ m-2 h-1 to mean W m-2 over the hour. */
export const MJ_PER_HOUR_TO_W = 1e6 / 3600;

/** Day of the year J (1 = 1 January) of the UTC date `dayIndex` days after 1970-01-01. */
export function dayOfYear(dayIndex: number): number {
  return dayOfYearOf(dayIndex);
}

/** Solar declination, rad (eq. 24). */
export function solarDeclination(j: number): number {
  return 0.409 * Math.sin((2 * Math.PI * j) / 365 - 1.39);
}

/** Inverse relative Earth-Sun distance dr (eq. 23). */
export function inverseRelativeDistance(j: number): number {
  return 1 + 0.033 * Math.cos((2 * Math.PI * j) / 365);
}

/** Seasonal correction for solar time Sc, hours (eqs. 57-58: the equation of time). */
export function seasonalCorrection(j: number): number {
  const b = (2 * Math.PI * (j - 81)) / 364;
  return 0.1645 * Math.sin(2 * b) - 0.1255 * Math.cos(b) - 0.025 * Math.sin(b);
}

/** Sunset hour angle ws, rad (eq. 59), clamped to [0, pi] for polar night and polar day. */
export function sunsetHourAngle(latRad: number, declRad: number): number {
  const x = -Math.tan(latRad) * Math.tan(declRad);
  if (x <= -1) return Math.PI;
  if (x >= 1) return 0;
  return Math.acos(x);
}

/** Daylight hours N = 24 ws / pi (FAO-56 eq. 34). */
export function dayLengthHours(latRad: number, declRad: number): number {
  return (24 / Math.PI) * sunsetHourAngle(latRad, declRad);
}

/**
 * Solar hour angle at UTC hour `utcHours` and longitude `lonDeg` (east positive), rad, in
 * [-pi, pi): eq. 55 with the time-zone meridian at Greenwich, so 0.06667 (Lz - Lm) = lon / 15.
 */
export function hourAngle(utcHours: number, lonDeg: number, sc: number): number {
  let s = (utcHours + lonDeg / 15 + sc) % 24;
  if (s < 0) s += 24;
  return (Math.PI / 12) * (s - 12);
}

/**
 * Extraterrestrial radiation over the period between hour angles w1 and w2, MJ m-2 per period
 * (eq. 48, with w1, w2 limited to [-ws, ws] as eqs. 56 prescribe). 0 when the sun is down.
 */
export function extraterrestrialRadiationPeriod(
  sinLat: number,
  cosLat: number,
  sinDecl: number,
  cosDecl: number,
  dr: number,
  w1: number,
  w2: number,
  ws: number,
): number {
  if (ws < Math.PI) {
    if (w1 < -ws) w1 = -ws;
    if (w2 > ws) w2 = ws;
    if (w1 >= w2) return 0;
  }
  const ra =
    ((12 * 60) / Math.PI) * SOLAR_CONSTANT * dr * ((w2 - w1) * sinLat * sinDecl + cosLat * cosDecl * (Math.sin(w2) - Math.sin(w1)));
  return ra > 0 ? ra : 0;
}

/** Clear-sky / extraterrestrial radiation ratio at elevation z m (eq. 47). */
export function clearSkyFactor(elevationM: number): number {
  return 0.75 + 2e-5 * elevationM;
}
