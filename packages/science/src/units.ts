/**
 * Unit conversions used across the science functions and the services.
 *
 * Factors are exact by definition unless noted: 1 in = 25.4 mm (International yard and pound
 * agreement, 1959), 1 mph = 0.44704 m/s, 1 kt = 1852 m/h, 0 °C = 273.15 K, 1 W = 1 J/s.
 */

/** Temperature: Celsius to Fahrenheit (°F = 1.8 °C + 32). */
export function celsiusToFahrenheit(c: number): number {
  return c * 1.8 + 32;
}

/** Temperature: Fahrenheit to Celsius. */
export function fahrenheitToCelsius(f: number): number {
  return (f - 32) / 1.8;
}

/** Temperature: Celsius to kelvin (SI: 0 °C = 273.15 K). */
export function celsiusToKelvin(c: number): number {
  return c + 273.15;
}

/** Temperature: kelvin to Celsius. */
export function kelvinToCelsius(k: number): number {
  return k - 273.15;
}

/** Temperature: Fahrenheit to kelvin. */
export function fahrenheitToKelvin(f: number): number {
  return celsiusToKelvin(fahrenheitToCelsius(f));
}

/** Temperature: kelvin to Fahrenheit. */
export function kelvinToFahrenheit(k: number): number {
  return celsiusToFahrenheit(kelvinToCelsius(k));
}

/**
 * A temperature *difference* (or a degree-day total) in Celsius degrees expressed in
 * Fahrenheit degrees. Differences carry no +32 offset, so only the 1.8 factor applies.
 */
export function celsiusDifferenceToFahrenheit(dc: number): number {
  return dc * 1.8;
}

/** A temperature difference (or degree-day total) in Fahrenheit degrees to Celsius degrees. */
export function fahrenheitDifferenceToCelsius(df: number): number {
  return df / 1.8;
}

const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 86400;

/** Mean irradiance over an hour (W m-2) to the energy of that hour (MJ m-2 h-1): x 0.0036. */
export function wattsPerSquareMetreToMegajoulesPerHour(w: number): number {
  return (w * SECONDS_PER_HOUR) / 1e6;
}

/** Energy of an hour (MJ m-2 h-1) to the mean irradiance over it (W m-2). */
export function megajoulesPerHourToWattsPerSquareMetre(mj: number): number {
  return (mj * 1e6) / SECONDS_PER_HOUR;
}

/** Mean irradiance over a day (W m-2) to the energy of that day (MJ m-2 d-1): x 0.0864. */
export function wattsPerSquareMetreToMegajoulesPerDay(w: number): number {
  return (w * SECONDS_PER_DAY) / 1e6;
}

/** Energy of a day (MJ m-2 d-1) to the mean irradiance over it (W m-2). */
export function megajoulesPerDayToWattsPerSquareMetre(mj: number): number {
  return (mj * 1e6) / SECONDS_PER_DAY;
}

/** Depth (or a rate such as mm/h) in millimetres to inches. */
export function millimetresToInches(mm: number): number {
  return mm / 25.4;
}

/** Depth (or rate) in inches to millimetres. */
export function inchesToMillimetres(inches: number): number {
  return inches * 25.4;
}

/** Speed: metres per second to kilometres per hour (x 3.6). */
export function metresPerSecondToKilometresPerHour(ms: number): number {
  return ms * 3.6;
}

/** Speed: kilometres per hour to metres per second. */
export function kilometresPerHourToMetresPerSecond(kmh: number): number {
  return kmh / 3.6;
}

/** Speed: miles per hour to metres per second (1 mph = 0.44704 m/s exactly). */
export function milesPerHourToMetresPerSecond(mph: number): number {
  return mph * 0.44704;
}

/** Speed: metres per second to miles per hour. */
export function metresPerSecondToMilesPerHour(ms: number): number {
  return ms / 0.44704;
}

/** Speed: knots to metres per second (1 kt = one international nautical mile, 1852 m, an hour, exactly). */
export function knotsToMetresPerSecond(kt: number): number {
  return (kt * 1852) / SECONDS_PER_HOUR;
}

/** Speed: metres per second to knots. */
export function metresPerSecondToKnots(ms: number): number {
  return (ms * SECONDS_PER_HOUR) / 1852;
}

/** Pressure: kilopascals to hectopascals (= millibars). */
export function kilopascalsToHectopascals(kpa: number): number {
  return kpa * 10;
}

/** Pressure: hectopascals (= millibars) to kilopascals. */
export function hectopascalsToKilopascals(hpa: number): number {
  return hpa / 10;
}
