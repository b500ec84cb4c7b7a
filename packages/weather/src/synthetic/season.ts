/**
 * The seasonal phase (climate.ts `seasonalPhase`) at the anchor instant of a local day, from a
 * per-process table. Anchors sit at local noon, t = 24 D + 12 - lon/15 hours, so
 *   phase = cos(w (D - D*) - w lon / 360)  with  w = 2 pi / tropical year, D* = 2000-01-01 + 200 - 0.5,
 * which splits by the angle-difference identity into a per-day pair (cos, sin of w (D - D*),
 * tabulated once) and a per-column pair (cos, sin of w lon / 360, once per request). A 10-year
 * point series then needs no trigonometry per day; values equal `seasonalPhase` to rounding.
 */
import { TROPICAL_YEAR_DAYS, WARMEST_DAY_OF_YEAR } from './climate.js';

const OMEGA = (2 * Math.PI) / TROPICAL_YEAR_DAYS;
/** Days from 1970 to 2000-01-01, plus the warmest day, minus half a day (anchors are at noon). */
const PHASE_DAY = 10957 + WARMEST_DAY_OF_YEAR - 0.5;
/** Table span: 2013-10-22 .. 2058, beyond the synthetic coverage (2015 .. now + 16 days) on both sides. */
const TABLE_D0 = 16000;
const TABLE_N = 16384;
let cosT: Float64Array | null = null;
let sinT: Float64Array | null = null;

function build(): void {
  cosT = new Float64Array(TABLE_N);
  sinT = new Float64Array(TABLE_N);
  for (let i = 0; i < TABLE_N; i++) {
    const a = OMEGA * (TABLE_D0 + i - PHASE_DAY);
    cosT[i] = Math.cos(a);
    sinT[i] = Math.sin(a);
  }
}

/** cos and sin of the column term w lon / 360 (lon in degrees), for `seasonAtNoon`. */
export function seasonColumn(lonDeg: number): { cos: number; sin: number } {
  const b = (OMEGA * lonDeg) / 360;
  return { cos: Math.cos(b), sin: Math.sin(b) };
}

/** Seasonal phase at local noon of day `day` (days since 1970) for a column's (cos, sin) pair. */
export function seasonAtNoon(day: number, colCos: number, colSin: number): number {
  const i = day - TABLE_D0;
  if (i >= 0 && i < TABLE_N) {
    if (cosT === null) build();
    return (cosT as Float64Array)[i]! * colCos + (sinT as Float64Array)[i]! * colSin;
  }
  const a = OMEGA * (day - PHASE_DAY);
  return Math.cos(a) * colCos + Math.sin(a) * colSin;
}

/**
 * The per-day (cos, sin) pairs for days d0 .. d0+n-1: the process tables with the offset of d0
 * in them (`shared`), or (outside their span) a fresh pair of arrays with offset 0.
 */
export function seasonTable(d0: number, n: number): { cos: Float64Array; sin: Float64Array; offset: number; shared: boolean } {
  const i = d0 - TABLE_D0;
  if (i >= 0 && i + n <= TABLE_N) {
    if (cosT === null) build();
    return { cos: cosT as Float64Array, sin: sinT as Float64Array, offset: i, shared: true };
  }
  const cos = new Float64Array(n), sin = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const a = OMEGA * (d0 + k - PHASE_DAY);
    cos[k] = Math.cos(a);
    sin[k] = Math.sin(a);
  }
  return { cos, sin, offset: 0, shared: false };
}
