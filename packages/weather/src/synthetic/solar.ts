/**
 * Solar geometry for the synthetic world's hourly loops. The formulas are @fieldcast/science's
 * (ASCE-EWRI 2005 / FAO-56, cited there); here they take the per-day and per-row terms
 * (declination, dr, sunset angle, sin and cos of latitude) as arguments, so a loop over cells and
 * hours computes those once per day and row instead of per call as science's
 * `hourlySolarGeometry` does. test/solar.test.ts checks both against science's functions.
 */
import { SOLAR_CONSTANT_MJ_PER_HOUR } from '@fieldcast/science';
import { dayOfYearOf } from './calendar.js';

export { clearSkyRadiation, inverseRelativeDistance, seasonalCorrection, solarDeclination, sunsetHourAngle } from '@fieldcast/science';

/** MJ m-2 h-1 to mean W m-2 over the hour. */
export const MJ_PER_HOUR_TO_W = 1e6 / 3600;

/** (12/pi) Gsc of eq. 48: multiplied by dr, the period's Ra in MJ m-2 h-1. */
const RA_PERIOD_FACTOR = (12 / Math.PI) * SOLAR_CONSTANT_MJ_PER_HOUR;

/**
 * Day of the year J (1 = 1 January) of the UTC date `dayIndex` days after 1970-01-01: science's
 * `dayOfYear` takes a Date, which a loop over years of days should not allocate.
 */
export function dayOfYear(dayIndex: number): number {
  return dayOfYearOf(dayIndex);
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
 * Hour angles are periodic: a period reaching past +-pi also counts its overlap with the next
 * or the previous day's daylight [-ws, ws] -+ 2 pi, which is there when the night is shorter
 * than the period (science's `hourlySolarGeometry` does the same).
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
  const a = sinLat * sinDecl,
    b = cosLat * cosDecl;
  const sum =
    ws >= Math.PI
      ? daylitPart(w1, w2, a, b)
      : daylitPart(Math.max(w1, -ws), Math.min(w2, ws), a, b) +
        daylitPart(Math.max(w1, 2 * Math.PI - ws), w2, a, b) +
        daylitPart(w1, Math.min(w2, ws - 2 * Math.PI), a, b);
  const ra = RA_PERIOD_FACTOR * dr * sum;
  return ra > 0 ? ra : 0;
}

/** The bracket of eq. 48 between hour angles lo and hi (0 when the span is empty); a = sin(lat) sin(decl), b = cos(lat) cos(decl). */
function daylitPart(lo: number, hi: number, a: number, b: number): number {
  return lo < hi ? (hi - lo) * a + b * (Math.sin(hi) - Math.sin(lo)) : 0;
}

/** Half an hour as an hour angle, rad: the hourly period stamped at w is [w - pi/24, w + pi/24]. */
export const HALF_HOUR_ANGLE = Math.PI / 24;

/**
 * Whether any of the period [lo, hi] is in daylight at sunset angle ws: polar day, the period
 * overlapping [-ws, ws], or (a night shorter than the period) reaching the next sunrise or the
 * previous sunset across +-pi (as `extraterrestrialRadiationPeriod` counts them).
 */
export function isLit(lo: number, hi: number, ws: number): boolean {
  return ws >= Math.PI || !(hi <= -ws || lo >= ws) || hi > 2 * Math.PI - ws || lo < ws - 2 * Math.PI;
}
