/**
 * Solar geometry and radiation terms of the standardized reference ET.
 *
 * Equation numbers: ASCE-EWRI (2005) "The ASCE Standardized Reference Evapotranspiration
 * Equation" (main report) and FAO-56 (Allen, Pereira, Raes & Smith 1998, Irrigation and
 * Drainage Paper 56, chapter 3), which share these formulas. Angles are in radians inside,
 * latitude and longitude in degrees at the interface (the API speaks WGS84 degrees).
 *
 * Longitude convention: degrees east positive, as in GeoJSON. ASCE and FAO write longitudes as
 * degrees west (Lm, Lz); their (Lz - Lm) equals (longitude - standardMeridian) here.
 */

const DEG = Math.PI / 180;

/** Solar constant, MJ m-2 h-1 (ASCE-EWRI 2005, Gsc = 4.92; FAO-56 0.0820 MJ m-2 min-1). */
export const SOLAR_CONSTANT_MJ_PER_HOUR = 4.92;

/** Day of the year, 1..366, of a UTC date (the J of ASCE-EWRI 2005 / FAO-56). */
export function dayOfYear(date: Date): number {
  const start = Date.UTC(date.getUTCFullYear(), 0, 1);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return Math.round((day - start) / 86_400_000) + 1;
}

/** Inverse relative Earth-Sun distance, ASCE-EWRI 2005 eq. 23 (FAO-56 eq. 23). */
export function inverseRelativeDistance(doy: number): number {
  return 1 + 0.033 * Math.cos((2 * Math.PI * doy) / 365);
}

/** Solar declination, radians, ASCE-EWRI 2005 eq. 24 (FAO-56 eq. 24). */
export function solarDeclination(doy: number): number {
  return 0.409 * Math.sin((2 * Math.PI * doy) / 365 - 1.39);
}

/**
 * Sunset hour angle, radians, ASCE-EWRI 2005 eq. 27 (FAO-56 eq. 25). The argument is clamped so
 * polar day (ωs = π) and polar night (ωs = 0) come out instead of NaN above the polar circles.
 */
export function sunsetHourAngle(latitudeDeg: number, declination: number): number {
  const x = -Math.tan(latitudeDeg * DEG) * Math.tan(declination);
  return Math.acos(x < -1 ? -1 : x > 1 ? 1 : x);
}

/** Daylight hours N = 24 ωs / π, FAO-56 eq. 34. */
export function daylightHours(latitudeDeg: number, doy: number): number {
  return (24 / Math.PI) * sunsetHourAngle(latitudeDeg, solarDeclination(doy));
}

/** Daily extraterrestrial radiation Ra, MJ m-2 d-1, ASCE-EWRI 2005 eq. 21 (FAO-56 eq. 21). */
export function extraterrestrialRadiationDaily(latitudeDeg: number, doy: number): number {
  const phi = latitudeDeg * DEG;
  const dec = solarDeclination(doy);
  const ws = sunsetHourAngle(latitudeDeg, dec);
  return (
    (24 / Math.PI) *
    SOLAR_CONSTANT_MJ_PER_HOUR *
    inverseRelativeDistance(doy) *
    (ws * Math.sin(phi) * Math.sin(dec) + Math.cos(phi) * Math.cos(dec) * Math.sin(ws))
  );
}

/** Seasonal correction for solar time (equation of time), hours, ASCE-EWRI 2005 eqs. 57-58 (FAO-56 eqs. 32-33). */
export function seasonalCorrection(doy: number): number {
  const b = (2 * Math.PI * (doy - 81)) / 364;
  return 0.1645 * Math.sin(2 * b) - 0.1255 * Math.cos(b) - 0.025 * Math.sin(b);
}

/**
 * Solar time angle at the midpoint of a period, radians, ASCE-EWRI 2005 eq. 55 (FAO-56 eq. 31):
 * ω = π/12 [(t + (Lz - Lm)/15 + Sc) - 12]. `midpointHour` is the standard clock time of the
 * period's midpoint (14.5 for 14:00-15:00) in the zone whose central meridian is
 * `standardMeridianDeg` (degrees east; 0 when t is UTC). ASCE writes 0.06667 for 1/15.
 */
export function solarTimeAngle(midpointHour: number, longitudeDeg: number, doy: number, standardMeridianDeg = 0): number {
  return (Math.PI / 12) * (midpointHour + (longitudeDeg - standardMeridianDeg) / 15 + seasonalCorrection(doy) - 12);
}

/** Solar altitude at the midpoint hour angle, radians, ASCE-EWRI 2005 eq. 62. */
export function solarAltitude(latitudeDeg: number, declination: number, hourAngle: number): number {
  const phi = latitudeDeg * DEG;
  const s = Math.sin(phi) * Math.sin(declination) + Math.cos(phi) * Math.cos(declination) * Math.cos(hourAngle);
  return Math.asin(s < -1 ? -1 : s > 1 ? 1 : s);
}

/** Where the sun is for one period: everything the hourly radiation terms need. */
export interface HourlySolarGeometry {
  /** Extraterrestrial radiation of the period, MJ m-2 per period. */
  ra: number;
  /** Solar time angle at the midpoint, radians. */
  hourAngle: number;
  /** Solar altitude at the midpoint, radians (negative below the horizon). */
  altitude: number;
  declination: number;
  /** Sunset hour angle ωs of the day, radians (eq. 27): π in polar day, 0 in polar night. */
  sunsetHourAngle: number;
}

/**
 * Extraterrestrial radiation of a period of `periodHours` (default 1) centred on
 * `midpointHour`, ASCE-EWRI 2005 eqs. 48 and 53-56 (FAO-56 eqs. 28-31). The period's end hour
 * angles are limited to the sunrise/sunset angles (eq. 56) so periods that straddle sunrise or
 * sunset count only their daylit part and night periods give 0.
 *
 * Hour angles are periodic: the sun is up on [-ωs, ωs] + 2πk for every whole k. A period around
 * local midnight runs past ω = π into the next day's -π. Eq. 56 is written for a period inside
 * (-π, π], so the period is integrated over its overlap with each of the three daylit intervals
 * it can touch (k = -1, 0, 1). In polar day (ωs = π) that is the whole hour, also the one
 * straddling midnight (the sun never sets); where ωs is just below π it is the part before
 * sunset plus the part after the following sunrise.
 */
export function hourlySolarGeometry(
  latitudeDeg: number,
  longitudeDeg: number,
  doy: number,
  midpointHour: number,
  standardMeridianDeg = 0,
  periodHours = 1,
): HourlySolarGeometry {
  const phi = latitudeDeg * DEG;
  const dec = solarDeclination(doy);
  const ws = sunsetHourAngle(latitudeDeg, dec);
  const w = normaliseAngle(solarTimeAngle(midpointHour, longitudeDeg, doy, standardMeridianDeg));
  const half = (Math.PI * periodHours) / 24;
  const a = Math.sin(phi) * Math.sin(dec);
  const b = Math.cos(phi) * Math.cos(dec);
  let integral = 0;
  for (const shift of [-2 * Math.PI, 0, 2 * Math.PI]) {
    const w1 = Math.max(w - half, shift - ws);
    const w2 = Math.min(w + half, shift + ws);
    if (w2 > w1) integral += (w2 - w1) * a + b * (Math.sin(w2) - Math.sin(w1));
  }
  const ra = (12 / Math.PI) * SOLAR_CONSTANT_MJ_PER_HOUR * inverseRelativeDistance(doy) * integral;
  return { ra: ra > 0 ? ra : 0, hourAngle: w, altitude: solarAltitude(latitudeDeg, dec, w), declination: dec, sunsetHourAngle: ws };
}

/** Hourly extraterrestrial radiation, MJ m-2 h-1 (see `hourlySolarGeometry`). */
export function extraterrestrialRadiationHourly(
  latitudeDeg: number,
  longitudeDeg: number,
  doy: number,
  midpointHour: number,
  standardMeridianDeg = 0,
): number {
  return hourlySolarGeometry(latitudeDeg, longitudeDeg, doy, midpointHour, standardMeridianDeg).ra;
}

/**
 * Hour angles wrap: a UTC clock time far from the site's meridian can put ω outside [-π, π]
 * (e.g. 23:30 UTC at 150° E). The sunrise/sunset limits of eq. 56 assume ω in that range.
 */
function normaliseAngle(w: number): number {
  const twoPi = 2 * Math.PI;
  let x = w % twoPi;
  if (x > Math.PI) x -= twoPi;
  else if (x < -Math.PI) x += twoPi;
  return x;
}

/**
 * Clear-sky solar radiation, same period as Ra, ASCE-EWRI 2005 eqs. 19 and 47 (FAO-56 eq. 37):
 * Rso = (0.75 + 2e-5 z) Ra, z = elevation in m. ASCE's Appendix D gives a fuller form with
 * sun angle and precipitable water; the standard allows this simple form and it is what FAO-56
 * uses, so it is the one implemented.
 */
export function clearSkyRadiation(ra: number, elevationM: number): number {
  return (0.75 + 2e-5 * elevationM) * ra;
}

/**
 * Solar radiation from sunshine hours, Angström formula, FAO-56 eq. 35:
 * Rs = (as + bs n/N) Ra, with FAO-56's default as = 0.25, bs = 0.50 where not calibrated.
 */
export function solarRadiationFromSunshine(sunshineHours: number, daylightHoursN: number, ra: number, as = 0.25, bs = 0.5): number {
  return (as + (bs * sunshineHours) / daylightHoursN) * ra;
}
