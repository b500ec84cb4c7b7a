/**
 * Day length by latitude row and day of year (FAO-56 eq. 34, N = 24 ws / pi), kept per process
 * for the rows recently used. N depends on (latitude, J) only, so a 10-year series needs at most
 * 366 values per row; computing them costs an acos each, more than the rest of a day's anchors.
 * Entries are filled on first use; a value is the same whether it came from the table or not,
 * so the cache never changes a result. Bounded: at most MAX_ROWS rows (3 KB each), dropped
 * wholesale when full.
 */
import { solarDeclination } from './solar.js';

const DEG = Math.PI / 180;
const MAX_ROWS = 4096;
const rows = new Map<number, Float64Array>();

/** tan(declination) by day of year J (1..366). */
const TAN_DECL = new Float64Array(367);
for (let j = 1; j <= 366; j++) TAN_DECL[j] = Math.tan(solarDeclination(j));

/** The per-J day-length row of a latitude (NaN = not computed yet); pass it to `dayLength`. */
export function dayLengthRow(latDeg: number): Float64Array {
  let row = rows.get(latDeg);
  if (row === undefined) {
    if (rows.size >= MAX_ROWS) rows.clear();
    row = new Float64Array(367).fill(Number.NaN);
    rows.set(latDeg, row);
  }
  return row;
}

/** Daylight hours at latitude latDeg (row from dayLengthRow) on day of year j. */
export function dayLength(row: Float64Array, latDeg: number, j: number): number {
  let n = row[j]!;
  if (n !== n) {
    const x = -Math.tan(latDeg * DEG) * TAN_DECL[j]!;
    n = x <= -1 ? 24 : x >= 1 ? 0 : (24 / Math.PI) * Math.acos(x);
    row[j] = n;
  }
  return n;
}

/**
 * Local mean solar hour of the temperature minimum: sunrise, 12 - N/2, but not before 01:00 so
 * the hour-wide minimum plateau stays inside the local day (polar day).
 */
export function minimumHour(dayLengthHours: number): number {
  const sr = 12 - dayLengthHours / 2;
  return sr > 1 ? sr : 1;
}
