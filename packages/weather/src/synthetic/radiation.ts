/**
 * Hourly shortwave radiation at the surface: clear-sky radiation from solar geometry (ASCE-EWRI
 * 2005 eqs. 47-48, 55-59) times a cloud factor, so Rs is 0 at night and never exceeds Rso.
 *
 * The value stamped at hour t is the mean over [t - 30 min, t + 30 min], the period ASCE-EWRI
 * hourly equations integrate over with w1 = w - pi/24 and w2 = w + pi/24 around the midpoint.
 * The cloud factor is Angstrom-Prescott (FAO-56 eq. 35, as = 0.25, bs = 0.50) with the relative
 * sunshine duration n/N taken as 1 - cloud: Rs/Rso = (0.25 + 0.5 (1 - cloud)) / 0.75.
 */
import type { Block } from './block.js';
import { CLOUD_NOISE, cloudBias, cloudFraction } from './clouds.js';
import { BlockNoise } from './noise.js';
import { clearSkyRadiation, dayOfYear, extraterrestrialRadiationPeriod, hourAngle, inverseRelativeDistance, MJ_PER_HOUR_TO_W, RA_PERIOD_FACTOR, seasonalCorrection, solarDeclination, sunsetHourAngle } from './solar.js';

const DEG = Math.PI / 180;
const HALF_HOUR_ANGLE = Math.PI / 24;

/** Rs / Rso for a cloud fraction (Angstrom-Prescott with n/N = 1 - cloud). */
export function cloudTransmission(cloud: number): number {
  return (0.25 + 0.5 * (1 - cloud)) / 0.75;
}

/** Hourly cloud fraction for hours h0 .. h0+nt-1 into a [t][cell] array. */
export function fillHourlyCloud(block: Block, h0: number, nt: number, out: Float32Array): void {
  const { lats, lons, nRows, nCols, nCells } = block;
  const noise = new BlockNoise(CLOUD_NOISE, lats, lons);
  const buf = new Float32Array(nCells);
  const bias = new Float64Array(nRows);
  for (let r = 0; r < nRows; r++) bias[r] = cloudBias(lats[r] as number);
  for (let t = 0; t < nt; t++) {
    noise.at(h0 + t, buf);
    const o = t * nCells;
    for (let r = 0; r < nRows; r++) {
      const b = bias[r] as number;
      for (let c = r * nCols, e = c + nCols; c < e; c++) out[o + c] = cloudFraction(buf[c] as number, b);
    }
  }
}

/**
 * Clear-sky radiation Rso and/or shortwave Rs (W m-2) for hours h0 .. h0+nt-1 into [t][cell]
 * arrays. Per-day terms (declination, dr, Sc, sunset angle per row) and per-hour-and-column hour
 * angles are computed once and shared by every cell they apply to.
 */
export function fillShortwave(block: Block, h0: number, nt: number, rsoOut: Float32Array | null, rsOut: Float32Array | null): void {
  const { lats, lons, nRows, nCols, nCells, altitude } = block;
  const sinLat = new Float64Array(nRows);
  const cosLat = new Float64Array(nRows);
  const latRad = new Float64Array(nRows);
  for (let r = 0; r < nRows; r++) {
    latRad[r] = (lats[r] as number) * DEG;
    sinLat[r] = Math.sin(latRad[r] as number);
    cosLat[r] = Math.cos(latRad[r] as number);
  }
  const factor = new Float64Array(nCells);
  // Rso = (0.75 + 2e-5 z) Ra (science's clearSkyRadiation, eq. 47), as a factor per cell.
  for (let i = 0; i < nCells; i++) factor[i] = clearSkyRadiation(MJ_PER_HOUR_TO_W, altitude[i] as number);
  const cloud = rsOut ? new Float32Array(nCells) : null;
  const cloudNoise = rsOut ? new BlockNoise(CLOUD_NOISE, lats, lons) : null;
  const bias = new Float64Array(nRows);
  for (let r = 0; r < nRows; r++) bias[r] = cloudBias(lats[r] as number);

  const w1 = new Float64Array(nCols), w2 = new Float64Array(nCols), s1 = new Float64Array(nCols), s2 = new Float64Array(nCols);
  const ws = new Float64Array(nRows);
  let day = Number.NaN, sinD = 0, cosD = 0, dr = 0, sc = 0, k = 0;
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    const d = Math.floor(h / 24);
    if (d !== day) {
      day = d;
      const j = dayOfYear(d);
      const decl = solarDeclination(j);
      sinD = Math.sin(decl);
      cosD = Math.cos(decl);
      dr = inverseRelativeDistance(j);
      sc = seasonalCorrection(j);
      k = RA_PERIOD_FACTOR * dr;
      for (let r = 0; r < nRows; r++) ws[r] = sunsetHourAngle(lats[r] as number, decl);
    }
    // Hours when the sun stays below the horizon all hour at every row are 0 for every cell:
    // nothing else (sines, the cloud field, its exp) is computed for them. About half the
    // hours of a point series, as the shortwave bench showed.
    let lit = false;
    for (let c = 0; c < nCols; c++) {
      const w = hourAngle(h, lons[c] as number, sc);
      const lo = w - HALF_HOUR_ANGLE, hi = w + HALF_HOUR_ANGLE;
      w1[c] = lo;
      w2[c] = hi;
      for (let r = 0; r < nRows && !lit; r++) {
        const wsr = ws[r] as number;
        lit = wsr >= Math.PI || !(hi <= -wsr || lo >= wsr);
      }
    }
    const o = t * nCells;
    if (!lit) {
      if (rsoOut) rsoOut.fill(0, o, o + nCells);
      if (rsOut) rsOut.fill(0, o, o + nCells);
      continue;
    }
    for (let c = 0; c < nCols; c++) {
      s1[c] = Math.sin(w1[c] as number);
      s2[c] = Math.sin(w2[c] as number);
    }
    if (cloudNoise && cloud) cloudNoise.at(h, cloud);
    for (let r = 0; r < nRows; r++) {
      const sl = sinLat[r] as number, cl = cosLat[r] as number, wsr = ws[r] as number;
      const a = sl * sinD, b = cl * cosD;
      const polarDay = wsr >= Math.PI;
      const bz = bias[r] as number;
      for (let c = 0; c < nCols; c++) {
        const cell = r * nCols + c;
        const lo = w1[c] as number, hi = w2[c] as number;
        let ra: number;
        if (polarDay || (lo >= -wsr && hi <= wsr)) {
          ra = k * ((hi - lo) * a + b * ((s2[c] as number) - (s1[c] as number)));
          if (ra < 0) ra = 0;
        } else if (hi <= -wsr || lo >= wsr) {
          ra = 0;
        } else {
          ra = extraterrestrialRadiationPeriod(sl, cl, sinD, cosD, dr, lo, hi, wsr);
        }
        const rso = ra * (factor[cell] as number);
        if (rsoOut) rsoOut[o + cell] = rso;
        if (rsOut && cloud) rsOut[o + cell] = rso === 0 ? 0 : rso * cloudTransmission(cloudFraction(cloud[cell] as number, bz));
      }
    }
  }
}
