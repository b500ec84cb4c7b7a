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
import { clearSkyRadiation, dayOfYear, hourAnglesOfDay, hourSinesOfDay, isLit, longitudeRotation, MJ_PER_HOUR_TO_W, periodRa, SOLAR_DAY, sunsetAt, sunsetRow } from './solar.js';

const DEG = Math.PI / 180;
export const HALF_HOUR_ANGLE = Math.PI / 24;

/**
 * Rs / Rso for a cloud fraction (Angstrom-Prescott with n/N = 1 - cloud):
 * (0.25 + 0.5 (1 - cloud)) / 0.75 = 1 - (2/3) cloud, written without the division (model v3;
 * the same value to rounding, one division fewer per lit cell-hour).
 */
export function cloudTransmission(cloud: number): number {
  return 1 - (2 / 3) * cloud;
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
 * arrays. Per-day terms (declination, dr, Sc, sunset angle per row, the period-end sines per
 * column and hour) and per-hour-and-column hour angles are computed once and shared by every
 * cell they apply to. The per-cell step is `shortwaveAt`, shared with the 2 x 2 point path
 * (quad-hourly.ts) so the two give the same bits.
 */
export function fillShortwave(block: Block, h0: number, nt: number, rsoOut: Float32Array | null, rsOut: Float32Array | null): void {
  const { lats, lons, nRows, nCols, nCells, altitude } = block;
  const sinLat = new Float64Array(nRows);
  const cosLat = new Float64Array(nRows);
  for (let r = 0; r < nRows; r++) {
    const latRad = (lats[r] as number) * DEG;
    sinLat[r] = Math.sin(latRad);
    cosLat[r] = Math.cos(latRad);
  }
  const factor = clearSkyFactors(altitude);
  const cloud = rsOut ? new Float32Array(nCells) : null;
  const cloudNoise = rsOut ? new BlockNoise(CLOUD_NOISE, lats, lons) : null;
  const bias = new Float64Array(nRows);
  for (let r = 0; r < nRows; r++) bias[r] = cloudBias(lats[r] as number);
  const lonRot = Array.from(lons, (lon) => longitudeRotation(lon));

  // Period-end hour angles and their sines for the 24 UTC hours of the current day, [col][hour].
  const w1 = new Float64Array(24 * nCols), w2 = new Float64Array(24 * nCols);
  const s1 = new Float64Array(24 * nCols), s2 = new Float64Array(24 * nCols);
  const ws = new Float64Array(nRows), sinWs = new Float64Array(nRows), ra = new Float64Array(nRows), rb = new Float64Array(nRows);
  const sunset = Array.from(lats, (lat) => sunsetRow(lat));
  let day = Number.NaN, sc = 0, k = 0;
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    const d = Math.floor(h / 24);
    if (d !== day) {
      day = d;
      const j = dayOfYear(d);
      const sinD = SOLAR_DAY.sinDecl[j]!, cosD = SOLAR_DAY.cosDecl[j]!;
      sc = SOLAR_DAY.sc[j]!;
      k = SOLAR_DAY.k[j]!;
      for (let r = 0; r < nRows; r++) {
        const row = sunset[r]!;
        sunsetAt(row, lats[r] as number, j);
        ws[r] = row[2 * j]!;
        sinWs[r] = row[2 * j + 1]!;
        ra[r] = (sinLat[r] as number) * sinD;
        rb[r] = (cosLat[r] as number) * cosD;
      }
      for (let c = 0; c < nCols; c++) {
        hourSinesOfDay(lonRot[c]!, j, s1.subarray(24 * c, 24 * c + 24), s2.subarray(24 * c, 24 * c + 24));
        hourAnglesOfDay(lons[c] as number, sc, w1.subarray(24 * c, 24 * c + 24), w2.subarray(24 * c, 24 * c + 24));
      }
    }
    const hour = h - 24 * d;
    // Hours when the sun stays below the horizon all hour at every row are 0 for every cell:
    // nothing else (the cloud field, its sigmoid) is computed for them. About half the
    // hours of a point series, as the shortwave bench showed.
    let lit = false;
    for (let c = 0; c < nCols && !lit; c++) {
      const lo = w1[24 * c + hour] as number, hi = w2[24 * c + hour] as number;
      for (let r = 0; r < nRows && !lit; r++) lit = isLit(lo, hi, ws[r] as number);
    }
    const o = t * nCells;
    if (!lit) {
      if (rsoOut) rsoOut.fill(0, o, o + nCells);
      if (rsOut) rsOut.fill(0, o, o + nCells);
      continue;
    }
    if (cloudNoise && cloud) cloudNoise.at(h, cloud);
    for (let r = 0; r < nRows; r++) {
      const wsr = ws[r] as number, swr = sinWs[r] as number, a = ra[r] as number, b = rb[r] as number;
      const bz = bias[r] as number;
      for (let c = 0; c < nCols; c++) {
        const cell = r * nCols + c;
        const rso = (factor[cell] as number) * periodRa(w1[24 * c + hour] as number, w2[24 * c + hour] as number, s1[24 * c + hour] as number, s2[24 * c + hour] as number, k, a, b, wsr, swr);
        if (rsoOut) rsoOut[o + cell] = rso;
        if (rsOut && cloud) rsOut[o + cell] = shortwaveOf(rso, cloud[cell] as number, bz);
      }
    }
  }
}

/** Rso / Ra per cell, W m-2 per MJ m-2 h-1: (0.75 + 2e-5 z) (science's clearSkyRadiation, eq. 47) times the unit change. */
export function clearSkyFactors(altitude: Float32Array): Float64Array {
  const factor = new Float64Array(altitude.length);
  for (let i = 0; i < altitude.length; i++) factor[i] = clearSkyRadiation(MJ_PER_HOUR_TO_W, altitude[i] as number);
  return factor;
}


/** Rs from Rso and the cell's cloud noise (float32, as BlockNoise gives it) and zonal bias. */
export function shortwaveOf(rso: number, cloudNoise: number, bias: number): number {
  return rso === 0 ? 0 : rso * cloudTransmission(cloudFraction(cloudNoise, bias));
}
