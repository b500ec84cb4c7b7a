/**
 * Solar geometry for the synthetic world's hourly loops and the forecast's clear-sky ceiling. The
 * formulas are @fieldcast/science's (ASCE-EWRI 2005 / FAO-56, cited there); here they take the
 * per-day, per-row and per-column terms (declination, dr, sunset angle, sin and cos of latitude,
 * the hour's hour angles and their sines) as arguments, so a loop over cells and hours computes
 * those once per day, row and column instead of per call as science's `hourlySolarGeometry` does.
 * test/solar.test.ts checks both against science's functions.
 */
import { inverseRelativeDistance, seasonalCorrection, SOLAR_CONSTANT_MJ_PER_HOUR, solarDeclination } from '@fieldcast/science';
import { dayOfYearOf } from './calendar.js';

export { clearSkyRadiation, solarDeclination, sunsetHourAngle } from '@fieldcast/science';

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

/** The solar terms of one UTC day that every place and hour of it shares. */
export interface SolarDay {
  /** solar declination, rad (eq. 24) */
  declination: number;
  sinDecl: number;
  cosDecl: number;
  /** inverse relative Earth-Sun distance (eq. 23) */
  dr: number;
  /** seasonal correction for solar time, hours (eqs. 57-58) */
  sc: number;
}

/** The solar terms of the UTC day `dayIndex` days after 1970-01-01. */
export function solarDay(dayIndex: number): SolarDay {
  const j = dayOfYearOf(dayIndex);
  const declination = solarDeclination(j);
  return {
    declination,
    sinDecl: Math.sin(declination),
    cosDecl: Math.cos(declination),
    dr: inverseRelativeDistance(j),
    sc: seasonalCorrection(j),
  };
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

/** An hour angle, rad, with its sine: a bound of a span eq. 48 integrates over. */
export interface HourAngleBound {
  w: number;
  sin: number;
}

const bound = (w: number): HourAngleBound => ({ w, sin: Math.sin(w) });

/** A period between hour angles w1 < w2, each with its sine, so a loop over many latitudes takes the sines once. */
export interface SolarPeriod {
  start: HourAngleBound;
  end: HourAngleBound;
}

export const solarPeriod = (w1: number, w2: number): SolarPeriod => ({ start: bound(w1), end: bound(w2) });

/** Half an hour as an hour angle, rad: the hourly period stamped at w is [w - pi/24, w + pi/24]. */
const HALF_HOUR_ANGLE = Math.PI / 24;

/** The hour stamped at hour angle w, the period its value is the mean of. */
export const hourPeriod = (w: number): SolarPeriod => solarPeriod(w - HALF_HOUR_ANGLE, w + HALF_HOUR_ANGLE);

/**
 * A day's daylight at a latitude as hour angles: the sunset angle ws (eq. 27) and the bounds, with
 * their sines, of the daylit span [-ws, ws] and of the next and the previous day's, 2 pi away.
 */
export interface Daylight {
  ws: number;
  rise: HourAngleBound;
  set: HourAngleBound;
  nextRise: HourAngleBound;
  lastSet: HourAngleBound;
}

export function daylight(ws: number): Daylight {
  return { ws, rise: bound(-ws), set: bound(ws), nextRise: bound(2 * Math.PI - ws), lastSet: bound(ws - 2 * Math.PI) };
}

/**
 * Extraterrestrial radiation over a period between hour angles w1 and w2, MJ m-2 per period
 * (eq. 48, with w1, w2 limited to [-ws, ws] as eqs. 56 prescribe). 0 when the sun is down.
 * Hour angles are periodic: a period reaching past +-pi also counts its overlap with the next
 * or the previous day's daylight [-ws, ws] -+ 2 pi, which is there when the night is shorter
 * than the period (science's `hourlySolarGeometry` does the same). The sines come with the
 * bounds (solarPeriod, daylight), so a grid takes them once per column and row, not per cell.
 */
export function extraterrestrialRadiationPeriod(
  sinLat: number,
  cosLat: number,
  sinDecl: number,
  cosDecl: number,
  dr: number,
  period: SolarPeriod,
  day: Daylight,
): number {
  const a = sinLat * sinDecl,
    b = cosLat * cosDecl;
  const { start, end } = period;
  const sum =
    day.ws >= Math.PI
      ? daylitPart(start, end, a, b)
      : daylitPart(later(start, day.rise), earlier(end, day.set), a, b) +
        daylitPart(later(start, day.nextRise), end, a, b) +
        daylitPart(start, earlier(end, day.lastSet), a, b);
  const ra = RA_PERIOD_FACTOR * dr * sum;
  return ra > 0 ? ra : 0;
}

/** Math.max and Math.min of two bounds by hour angle: NaN where either is (the part is then empty). */
const later = (x: HourAngleBound, y: HourAngleBound) => (x.w >= y.w ? x : y.w > x.w ? y : NAN_BOUND);
const earlier = (x: HourAngleBound, y: HourAngleBound) => (x.w <= y.w ? x : y.w < x.w ? y : NAN_BOUND);
const NAN_BOUND: HourAngleBound = { w: Number.NaN, sin: Number.NaN };

/** The bracket of eq. 48 between hour angles lo and hi (0 when the span is empty); a = sin(lat) sin(decl), b = cos(lat) cos(decl). */
function daylitPart(lo: HourAngleBound, hi: HourAngleBound, a: number, b: number): number {
  return lo.w < hi.w ? (hi.w - lo.w) * a + b * (hi.sin - lo.sin) : 0;
}

/**
 * Whether any of the period [lo, hi] is in daylight at sunset angle ws: polar day, the period
 * overlapping [-ws, ws], or (a night shorter than the period) reaching the next sunrise or the
 * previous sunset across +-pi (as `extraterrestrialRadiationPeriod` counts them).
 */
export function isLit(lo: number, hi: number, ws: number): boolean {
  return ws >= Math.PI || !(hi <= -ws || lo >= ws) || hi > 2 * Math.PI - ws || lo < ws - 2 * Math.PI;
}
