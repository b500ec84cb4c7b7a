/**
 * Saturation vapour pressure, relative humidity and dewpoint.
 *
 * Two forms of the saturation curve are in use and they must not be mixed:
 * - Bolton (1980, Mon. Wea. Rev. 108:1046-1053, eq. 10): es = 0.6112 exp(17.67 T / (T + 243.5))
 *   kPa, within 0.1 % of Wexler's formulation for -35..35 °C. Used here for relative humidity
 *   and dewpoint, which the insight service serves (spec 2.7).
 * - Tetens as written in FAO-56 (eq. 11) and ASCE-EWRI 2005 (eq. 7, 37):
 *   e°(T) = 0.6108 exp(17.27 T / (T + 237.3)) kPa. The standardized reference ET is defined with
 *   this form, so the evapotranspiration module uses it to reproduce the standard.
 */

/** Saturation vapour pressure over water, kPa, Bolton (1980) eq. 10; T in °C. */
export function saturationVapourPressure(tC: number): number {
  return 0.6112 * Math.exp((17.67 * tC) / (tC + 243.5));
}

/** Saturation vapour pressure, kPa, Tetens form of FAO-56 eq. 11 / ASCE-EWRI 2005 eq. 37. */
export function saturationVapourPressureTetens(tC: number): number {
  return 0.6108 * Math.exp((17.27 * tC) / (tC + 237.3));
}

/**
 * Relative humidity to the 0-100 % range. Interpolated or modelled humidity can overshoot
 * (supersaturation is not a surface-air quantity the API reports). NaN stays NaN.
 */
export function clampRelativeHumidity(rh: number): number {
  return rh < 0 ? 0 : rh > 100 ? 100 : rh;
}

/**
 * Relative humidity (%) from air temperature and dewpoint (°C): the ratio of the actual vapour
 * pressure, es(Td), to the saturation pressure, es(T), both by Bolton (1980). Clamped to
 * 0-100 % so a dewpoint a little above the temperature (rounding, interpolation) reads 100 %.
 */
export function relativeHumidity(tC: number, dewpointC: number): number {
  return clampRelativeHumidity((100 * saturationVapourPressure(dewpointC)) / saturationVapourPressure(tC));
}

/**
 * Dewpoint (°C) from air temperature (°C) and relative humidity (%), the exact inverse of
 * Bolton's eq. 10: with x = ln(RH/100) + 17.67 T/(T + 243.5), Td = 243.5 x / (17.67 - x).
 * RH is clamped to 100 %; at or below 0 % the dewpoint is undefined (-∞) and NaN is returned.
 */
export function dewpoint(tC: number, rh: number): number {
  const r = clampRelativeHumidity(rh);
  if (!(r > 0)) return Number.NaN;
  const x = Math.log(r / 100) + (17.67 * tC) / (tC + 243.5);
  return (243.5 * x) / (17.67 - x);
}

/** Actual vapour pressure (kPa) from dewpoint, Bolton (1980): e = es(Td). */
export function vapourPressureFromDewpoint(dewpointC: number): number {
  return saturationVapourPressure(dewpointC);
}
