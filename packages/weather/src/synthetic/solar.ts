/**
 * Solar geometry for the synthetic world's hot loops. The formulas are @fieldcast/science's
 * (ASCE-EWRI 2005 / FAO-56, cited there); only what the hourly loops need in a fused form is
 * here: the hour angle from a UTC hour without the % of `solarTimeAngle` + normalisation, and
 * the period integral of eq. 48 on precomputed sines and cosines (science's
 * `hourlySolarGeometry` recomputes declination, sunset angle and sin/cos of latitude per call).
 * test/solar.test.ts checks both against science's functions.
 */
import { inverseRelativeDistance, SOLAR_CONSTANT_MJ_PER_HOUR, seasonalCorrection, solarDeclination, sunsetHourAngle } from '@fieldcast/science';
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
 * Hour angles are periodic: a period reaching past +-pi also counts its overlap with the next
 * or the previous day's daylight [-ws, ws] -+ 2 pi, which is there when the night is shorter
 * than the period (science's `hourlySolarGeometry` does the same; docs/decisions.md "Hourly Ra
 * across local midnight").
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
  const over = (lo: number, hi: number): number => (lo < hi ? (hi - lo) * sinLat * sinDecl + cosLat * cosDecl * (Math.sin(hi) - Math.sin(lo)) : 0);
  const sum = ws >= Math.PI ? over(w1, w2) : over(Math.max(w1, -ws), Math.min(w2, ws)) + over(Math.max(w1, 2 * Math.PI - ws), w2) + over(w1, Math.min(w2, ws - 2 * Math.PI));
  const ra = RA_PERIOD_FACTOR * dr * sum;
  return ra > 0 ? ra : 0;
}

/** Half the hour, as an hour angle (rad): an hourly period is [w - pi/24, w + pi/24]. */
export const HALF_HOUR = Math.PI / 24;
export const COS_HALF_HOUR = Math.cos(HALF_HOUR);
export const SIN_HALF_HOUR = Math.sin(HALF_HOUR);
/**
 * cos (entries 0..23) and sin (24..47) of pi/12 (i - 12), the hour angle of UTC hour i at
 * Greenwich before the corrections; one array so that a kernel can keep it (quad-hourly.ts).
 */
export const HOUR_TERMS = new Float64Array(48);
for (let i = 0; i < 24; i++) {
  HOUR_TERMS[i] = Math.cos((Math.PI / 12) * (i - 12));
  HOUR_TERMS[24 + i] = Math.sin((Math.PI / 12) * (i - 12));
}
const HOUR_COS = HOUR_TERMS.subarray(0, 24);
const HOUR_SIN = HOUR_TERMS.subarray(24, 48);
/** cos and sin of pi Sc(J) / 12 by day of year J = 1..366 (Sc: eqs. 57-58, hours). */
export const SC_COS = new Float64Array(367);
export const SC_SIN = new Float64Array(367);
for (let j = 1; j <= 366; j++) {
  const a = (Math.PI / 12) * seasonalCorrection(j);
  SC_COS[j] = Math.cos(a);
  SC_SIN[j] = Math.sin(a);
}

/** cos and sin of pi lon / 180, the longitude's share of the hour angle (lon / 15 h), for `hourSinesOfDay`. */
export function longitudeRotation(lonDeg: number): { cos: number; sin: number } {
  const a = (Math.PI / 180) * lonDeg;
  return { cos: Math.cos(a), sin: Math.sin(a) };
}

/**
 * The day's rotation at one longitude: cos and sin of pi/12 (lon/15 + Sc), the longitude and
 * equation-of-time terms of the hour angle (eq. 55), written to out[o] and out[o + 1]. The hour
 * angle of UTC hour i is this rotation applied to `HOUR_TERMS` i.
 */
export function dayRotation(lonRot: { cos: number; sin: number }, j: number, out: Float64Array, o: number, stride = 1): void {
  const rc = SC_COS[j]!, rs = SC_SIN[j]!;
  out[o] = lonRot.cos * rc - lonRot.sin * rs;
  out[o + stride] = lonRot.sin * rc + lonRot.cos * rs;
}

const ROTATION = new Float64Array(2);

/**
 * sin(w - pi/24) and sin(w + pi/24) for the 24 UTC hours of a day at one longitude (model v3):
 * the sines eq. 48 takes at the ends of each hourly period, where w = pi/12 (h + lon/15 + Sc - 12)
 * (eq. 55, `hourAngle`). The angle is the sum of an hour term (24-entry table), a longitude term
 * (per column) and an equation-of-time term (per day of year), so the sines come from the
 * angle-sum identities, with no trigonometric call per hour; they equal Math.sin of the period
 * ends to rounding (test/solar.test.ts). `lonRot` is `longitudeRotation(lon)`, j the day of year.
 * The hourly shortwave kernel (kernels/hourly-series.wat) does the same operations.
 */
export function hourSinesOfDay(lonRot: { cos: number; sin: number }, j: number, s1: Float64Array, s2: Float64Array): void {
  dayRotation(lonRot, j, ROTATION, 0);
  const cb = ROTATION[0]!, sb = ROTATION[1]!;
  for (let i = 0; i < 24; i++) {
    const cw = HOUR_COS[i]! * cb - HOUR_SIN[i]! * sb, sw = HOUR_SIN[i]! * cb + HOUR_COS[i]! * sb;
    s1[i] = sw * COS_HALF_HOUR - cw * SIN_HALF_HOUR;
    s2[i] = sw * COS_HALF_HOUR + cw * SIN_HALF_HOUR;
  }
}

/**
 * Hour angles of the ends of the 24 hourly periods of a UTC day at one longitude (model v3):
 * lo[i] = w - pi/24 and hi[i] = w + pi/24 with w = pi/12 (s - 12), s = (i + lon/15 + Sc) reduced
 * to [0, 24) (eq. 55 as `hourAngle`, summed from the hour of the day instead of the hour since
 * 1970, which keeps more bits and lets a day's angles be computed together). Equals `hourAngle`
 * to rounding (test/solar.test.ts).
 */
export function hourAnglesOfDay(lonDeg: number, sc: number, lo: Float64Array, hi: Float64Array): void {
  const g = lonDeg / 15 + sc;
  for (let i = 0; i < 24; i++) {
    let s = i + g;
    if (s < 0) s += 24;
    else if (s >= 24) s -= 24;
    const w = (Math.PI / 12) * (s - 12);
    lo[i] = w - HALF_HOUR;
    hi[i] = w + HALF_HOUR;
  }
}

/**
 * Ra (MJ m-2 h-1, before the factor dr Gsc 12/pi = `k`) of the hourly period [lo, hi] = w -+ pi/24
 * from the sines of its ends (`hourSinesOfDay`): eq. 48 with w1, w2 limited to [-ws, ws]
 * (eqs. 56), the sine of a limited end being +-sin(ws). a = sin(lat) sin(decl), b = cos(lat) cos(decl).
 * A period past +-pi also counts its overlap with the next sunrise (2 pi - ws, sine -sin(ws)) or
 * the previous sunset (ws - 2 pi, sine sin(ws)): a night shorter than the hour, which holds both.
 * The value of `extraterrestrialRadiationPeriod` to rounding, without its two Math.sin calls.
 */
export function periodRa(lo: number, hi: number, s1: number, s2: number, k: number, a: number, b: number, ws: number, sinWs: number): number {
  if (ws >= Math.PI || (lo >= -ws && hi <= ws)) {
    const ra = k * ((hi - lo) * a + b * (s2 - s1));
    return ra > 0 ? ra : 0;
  }
  if (hi > 2 * Math.PI - ws || lo < ws - 2 * Math.PI) return acrossShortNight(lo, hi, s1, s2, k, a, b, ws, sinWs);
  if (hi <= -ws || lo >= ws) return 0;
  const w1 = lo < -ws ? -ws : lo, w2 = hi > ws ? ws : hi;
  if (w1 >= w2) return 0;
  const ra = k * ((w2 - w1) * a + b * ((hi > ws ? sinWs : s2) - (lo < -ws ? -sinWs : s1)));
  return ra > 0 ? ra : 0;
}

/**
 * periodRa of a period that reaches the next sunrise (2 pi - ws) or the previous sunset
 * (ws - 2 pi) across +-pi: its overlap with [-ws, ws] plus the part past that sunrise or before
 * that sunset. Apart, so periodRa stays small enough for V8 to inline in the hourly loops.
 */
function acrossShortNight(lo: number, hi: number, s1: number, s2: number, k: number, a: number, b: number, ws: number, sinWs: number): number {
  let ra = 0;
  if (!(hi <= -ws || lo >= ws)) {
    const w1 = lo < -ws ? -ws : lo, w2 = hi > ws ? ws : hi;
    if (w1 < w2) ra = k * ((w2 - w1) * a + b * ((hi > ws ? sinWs : s2) - (lo < -ws ? -sinWs : s1)));
  }
  const rise = 2 * Math.PI - ws, set = ws - 2 * Math.PI;
  if (hi > rise) ra += k * ((hi - rise) * a + b * (s2 + sinWs));
  if (lo < set) ra += k * ((set - lo) * a + b * (sinWs - s1));
  return ra > 0 ? ra : 0;
}

/**
 * Whether any of the period [lo, hi] is in daylight at sunset angle ws: polar day, the period
 * overlapping [-ws, ws], or (a night shorter than the period) reaching the next sunrise or the
 * previous sunset across +-pi (`periodRa`).
 */
export function isLit(lo: number, hi: number, ws: number): boolean {
  return ws >= Math.PI || !(hi <= -ws || lo >= ws) || hi > 2 * Math.PI - ws || lo < ws - 2 * Math.PI;
}

/**
 * Per-day solar terms by day of year J = 1..366, computed once per process (they depend on J
 * only): sin and cos of the declination (eq. 24), k = (12/pi) Gsc dr (eqs. 23, 48) and Sc
 * (eqs. 57-58). Hourly shortwave reads them instead of five trigonometric calls per day.
 */
export const SOLAR_DAY = (() => {
  const sinDecl = new Float64Array(367), cosDecl = new Float64Array(367), k = new Float64Array(367), sc = new Float64Array(367);
  for (let j = 1; j <= 366; j++) {
    const decl = solarDeclination(j);
    sinDecl[j] = Math.sin(decl);
    cosDecl[j] = Math.cos(decl);
    k[j] = RA_PERIOD_FACTOR * inverseRelativeDistance(j);
    sc[j] = seasonalCorrection(j);
  }
  return { sinDecl, cosDecl, k, sc };
})();

const SUNSET_ROWS = new Map<number, Float64Array>();
const MAX_SUNSET_ROWS = 4096;

/**
 * Sunset hour angle ws (science's `sunsetHourAngle`, eq. 27) and sin(ws) by day of year for one
 * latitude, kept per process like the day-length rows (daylight.ts): entries [2 J, 2 J + 1] are
 * filled on first use (NaN until then) and depend on (latitude, J) only, so the cache never
 * changes a result. Bounded: dropped wholesale when full. Read through `sunsetAt`.
 */
export function sunsetRow(latDeg: number): Float64Array {
  let row = SUNSET_ROWS.get(latDeg);
  if (row === undefined) {
    if (SUNSET_ROWS.size >= MAX_SUNSET_ROWS) SUNSET_ROWS.clear();
    row = new Float64Array(2 * 367).fill(Number.NaN);
    SUNSET_ROWS.set(latDeg, row);
  }
  return row;
}

/** sunsetAt for the days of year doy[offset .. offset+n-1]. */
export function sunsetDays(row: Float64Array, latDeg: number, doy: Uint16Array, offset: number, n: number): void {
  for (let i = offset; i < offset + n; i++) sunsetAt(row, latDeg, doy[i]!);
}

/** Fills entry J of a sunset row if needed; then row[2 J] = ws and row[2 J + 1] = sin(ws). */
export function sunsetAt(row: Float64Array, latDeg: number, j: number): void {
  if (row[2 * j] !== row[2 * j]) {
    const ws = sunsetHourAngle(latDeg, solarDeclination(j));
    row[2 * j] = ws;
    row[2 * j + 1] = Math.sin(ws);
  }
}
