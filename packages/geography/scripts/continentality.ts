// Continentality: how much land the air over a cell has recently crossed, 0 (open ocean
// upwind) to 1 (deep inside a continent downwind of more land).
//
// Along each latitude circle the land fraction is averaged upwind with weights decaying
// exponentially over FETCH_KM (a first-order recursive filter run twice round the circle,
// so it wraps). Upwind follows the mean surface wind belts: westerlies between about 35 and
// 60 degrees of latitude (air from the west), easterly trades and polar easterlies elsewhere,
// with linear blends across 25-35 and 60-70 degrees. The result is then averaged over
// +-MERIDIONAL_KM of latitude so a coast's influence spreads north and south as well.
import type { GridShape } from '../src/grid-file.js';

export const FETCH_KM = 1500;
export const MERIDIONAL_KM = 500;
const KM_PER_DEGREE = 111.195; // great-circle degree on the IUGG mean sphere

/** Weight of air arriving from the west at latitude `lat` (degrees). */
export function westerlyWeight(lat: number): number {
  const a = Math.abs(lat);
  const rise = Math.min(1, Math.max(0, (a - 25) / 10));
  const fall = Math.min(1, Math.max(0, (70 - a) / 10));
  return Math.min(rise, fall);
}

function upwindMean(row: Float32Array, alpha: number, fromWest: boolean): Float32Array {
  const n = row.length;
  const out = new Float32Array(n);
  let acc = 0;
  // Two laps: the first one warms the filter up with the far side of the circle.
  for (let lap = 0; lap < 2; lap++) {
    for (let t = 0; t < n; t++) {
      const i = fromWest ? t : n - 1 - t;
      acc = alpha * acc + (1 - alpha) * row[i]!;
      if (lap === 1) out[i] = acc;
    }
  }
  return out;
}

export function continentality(landFraction: Float32Array, shape: GridShape): Float32Array {
  const { nlon, nlat, north, step } = shape;
  const zonal = new Float32Array(nlon * nlat);
  for (let j = 0; j < nlat; j++) {
    const lat = north - (j + 0.5) * step;
    const cellKm = Math.max(1e-3, step * KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
    const alpha = Math.exp(-cellKm / FETCH_KM);
    const row = landFraction.subarray(j * nlon, (j + 1) * nlon);
    const w = westerlyWeight(lat);
    const fromWest = upwindMean(row, alpha, true);
    const fromEast = upwindMean(row, alpha, false);
    for (let i = 0; i < nlon; i++) zonal[j * nlon + i] = w * fromWest[i]! + (1 - w) * fromEast[i]!;
  }
  // Box mean over latitude, by running sums down each column (rows clamp at the poles).
  const half = Math.max(0, Math.round(MERIDIONAL_KM / KM_PER_DEGREE / step));
  const out = new Float32Array(nlon * nlat);
  for (let i = 0; i < nlon; i++) {
    const prefix = new Float64Array(nlat + 1);
    for (let j = 0; j < nlat; j++) prefix[j + 1] = prefix[j]! + zonal[j * nlon + i]!;
    for (let j = 0; j < nlat; j++) {
      const lo = Math.max(0, j - half);
      const hi = Math.min(nlat - 1, j + half);
      out[j * nlon + i] = (prefix[hi + 1]! - prefix[lo]!) / (hi - lo + 1);
    }
  }
  return out;
}
