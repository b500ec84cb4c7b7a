/**
 * Integer calendar arithmetic for hot loops (no Date objects): H. Hinnant, "chrono-Compatible
 * Low-Level Date Algorithms" (days_from_civil / civil_from_days), proleptic Gregorian, UTC.
 */

export const HOUR_MS = 3_600_000;

/** Days since 1970-01-01 of the civil date y-m-d (m 1..12). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Civil year of the day `days` after 1970-01-01. */
function yearOfDay(days: number): number {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  return yoe + era * 400 + (mp >= 10 ? 1 : 0);
}

/** Day of the year J (1 = 1 January) of the day `days` after 1970-01-01. */
export function dayOfYearOf(days: number): number {
  return days - daysFromCivil(yearOfDay(days), 1, 1) + 1;
}
