/**
 * Ground height from surface pressure, the inverse of ASCE-EWRI 2005 eq. 3
 * (P = 101.3 ((293 - 0.0065 z) / 293)^5.26): z = 293 (1 - (P / 101.3)^(1 / 5.26)) / 0.0065, from
 * the mean of the values at offset, offset + stride, ... (kPa). Used only where a source has no
 * surface_altitude: the standardized equation takes pressure from elevation, not from the hour's
 * weather, so the mean pressure stands for the place's height. At least 0 m: a spell of high
 * pressure at the coast would otherwise read as ground below sea level. 0 without values.
 */
export function elevationFromPressure(values: ArrayLike<number>, offset = 0, stride = 1): number {
  let sum = 0,
    n = 0;
  for (let i = offset; i < values.length; i += stride) {
    const p = values[i] as number;
    if (Number.isFinite(p) && p > 0) {
      sum += p;
      n++;
    }
  }
  if (n === 0) return 0;
  const z = (293 * (1 - Math.pow(sum / n / 101.3, 1 / 5.26))) / 0.0065;
  return Math.max(0, z);
}
