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
import { CLOUD_NOISE, cloudFraction } from './clouds.js';
import { cloudBiasOfDay } from './cloud-climate.js';
import { BlockNoise } from './noise.js';
import {
  clearSkyRadiation,
  type Daylight,
  daylight,
  extraterrestrialRadiationPeriod,
  hourAngle,
  hourPeriod,
  isLit,
  MJ_PER_HOUR_TO_W,
  type SolarPeriod,
  solarDay,
  sunsetHourAngle,
} from './solar.js';

const DEG = Math.PI / 180;

/** Rs / Rso for a cloud fraction (Angstrom-Prescott with n/N = 1 - cloud): (0.25 + 0.5 (1 - cloud)) / 0.75. */
function cloudTransmission(cloud: number): number {
  return (0.25 + 0.5 * (1 - cloud)) / 0.75;
}

/** Hourly cloud fraction for hours h0 .. h0+nt-1 into a [t][cell] array: the noise over the day's cloud bias (geoclimate.ts cloudBiasOfDay). */
export function fillHourlyCloud(block: Block, h0: number, nt: number, out: Float32Array): void {
  const { lats, lons, nCells } = block;
  const noise = new BlockNoise(CLOUD_NOISE, lats, lons);
  const buf = new Float32Array(nCells);
  const bias = new Float64Array(nCells);
  let day = Number.NaN;
  for (let t = 0; t < nt; t++) {
    const d = Math.floor((h0 + t) / 24);
    if (d !== day) cloudBiasOfDay(block, (day = d), bias);
    noise.at(h0 + t, buf);
    const o = t * nCells;
    for (let c = 0; c < nCells; c++) out[o + c] = cloudFraction(buf[c] as number, bias[c]!);
  }
}

/**
 * Clear-sky radiation Rso and/or shortwave Rs (W m-2) for hours h0 .. h0+nt-1 into [t][cell]
 * arrays. The solar terms of a day (declination, dr, equation of time, daylight per row) are
 * computed once per UTC day, the hour angles and their sines once per hour and column; the cloud
 * field only for hours when the sun is up somewhere in the block.
 */
export function fillShortwave(block: Block, h0: number, nt: number, rsoOut: Float32Array | null, rsOut: Float32Array | null): void {
  const { lats, lons, nRows, nCols, nCells, altitude } = block;
  const sinLat = Float64Array.from(lats, (lat) => Math.sin(lat * DEG));
  const cosLat = Float64Array.from(lats, (lat) => Math.cos(lat * DEG));
  const bias = new Float64Array(nCells);
  // Rso / Ra per cell, W m-2 per MJ m-2 h-1: (0.75 + 2e-5 z) (ASCE-EWRI 2005 eq. 47) times the unit change.
  const factor = Float64Array.from(altitude, (z) => clearSkyRadiation(MJ_PER_HOUR_TO_W, z));
  const cloudNoise = rsOut ? new BlockNoise(CLOUD_NOISE, lats, lons) : null;
  const noise = new Float32Array(nCells);
  const days: Daylight[] = new Array<Daylight>(nRows);
  const periods: SolarPeriod[] = new Array<SolarPeriod>(nCols);
  let day = Number.NaN,
    sun = solarDay(0);
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    const d = Math.floor(h / 24);
    if (d !== day) {
      day = d;
      sun = solarDay(d);
      for (let r = 0; r < nRows; r++) days[r] = daylight(sunsetHourAngle(lats[r]!, sun.declination));
      if (rsOut) cloudBiasOfDay(block, d, bias);
    }
    const { sinDecl, cosDecl, dr } = sun;
    let lit = false;
    for (let c = 0; c < nCols; c++) {
      // The value stamped at hour t is the mean over the hour centred on it (module comment).
      const { start, end } = (periods[c] = hourPeriod(hourAngle(h, lons[c]!, sun.sc)));
      for (let r = 0; r < nRows && !lit; r++) lit = isLit(start.w, end.w, days[r]!.ws);
    }
    const o = t * nCells;
    if (!lit) {
      // Night everywhere in the block: 0 without evaluating the cloud field.
      rsoOut?.fill(0, o, o + nCells);
      rsOut?.fill(0, o, o + nCells);
      continue;
    }
    cloudNoise?.at(h, noise);
    for (let r = 0; r < nRows; r++) {
      for (let c = 0; c < nCols; c++) {
        const cell = r * nCols + c;
        const rso = factor[cell]! * extraterrestrialRadiationPeriod(sinLat[r]!, cosLat[r]!, sinDecl, cosDecl, dr, periods[c]!, days[r]!);
        if (rsoOut) rsoOut[o + cell] = rso;
        if (rsOut) rsOut[o + cell] = rso === 0 ? 0 : rso * cloudTransmission(cloudFraction(noise[cell]!, bias[cell]!));
      }
    }
  }
}
