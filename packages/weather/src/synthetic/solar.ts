/**
 * Solar geometry for the synthetic world's hot loops. The formulas are @fieldcast/science's
 * (ASCE-EWRI 2005 / FAO-56, cited there); only what the hourly loops need in a fused form is
 * here: the hour angle from a UTC hour without the % of `solarTimeAngle` + normalisation, and
 * the period integral of eq. 48 on precomputed sines and cosines (science's
 * `hourlySolarGeometry` recomputes declination, sunset angle and sin/cos of latitude per call).
 * test/solar.test.ts checks both against science's functions.
 */
import { SOLAR_CONSTANT_MJ_PER_HOUR, sunsetHourAngle } from '@fieldcast/science';
import { dayOfYearOf } from './calendar.js';

export { clearSkyRadiation, inverseRelativeDistance, seasonalCorrection, solarDeclination, sunsetHourAngle } from '@fieldcast/science';

/** MJ m-2 h-1 to mean W m-2 over the hour. */
export const MJ_PER_HOUR_TO_W = 1e6 / 3600;

/** (12/pi) Gsc of eq. 48: multiplied by dr, the period's Ra in MJ m-2 h-1. */
export const RA_PERIOD_FACTOR = (12 / Math.PI) * SOLAR_CONSTANT_MJ_PER_HOUR;

/**
 * Day of the year J (1 = 1 January) of the UTC date `dayIndex` days after 1970-01-01: science's
 * `dayOfYear` takes a Date, which a loop over years of days should not allocate.
 */
export function dayOfYear(dayIndex: number): number {
  return dayOfYearOf(dayIndex);
}

/** Daylight hours N = 24 ws / pi (FAO-56 eq. 34) from latitude (degrees) and declination. */
export function dayLengthHours(latDeg: number, declRad: number): number {
  return (24 / Math.PI) * sunsetHourAngle(latDeg, declRad);
}

/**
 * Solar hour angle at UTC hour `utcHours` and longitude `lonDeg` (east positive), rad, in
 * [-pi, pi): eq. 55 with the time-zone meridian at Greenwich, so 0.06667 (Lz - Lm) = lon / 15.
 * The hour is reduced modulo 24 by floor, which is exact here (Sterbenz) and avoids fmod.
 */
export function hourAngle(utcHours: number, lonDeg: number, sc: number): number {
  const x = utcHours + lonDeg / 15 + sc;
  let s = x - 24 * Math.floor(x / 24);
  if (s < 0) s += 24;
  else if (s >= 24) s -= 24;
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
  const ra = RA_PERIOD_FACTOR * dr * ((w2 - w1) * sinLat * sinDecl + cosLat * cosDecl * (Math.sin(w2) - Math.sin(w1)));
  return ra > 0 ? ra : 0;
}
