/**
 * Hourly wind speed at 2 m. Zonal climatology (mid-latitude westerlies near 50 degrees, trade
 * winds near 15 degrees, calmer doldrums and subtropical highs), modulated by synoptic noise, a
 * diurnal cycle peaking in the early afternoon when the boundary layer is well mixed, and
 * exposure (higher ground is windier).
 */
import type { Block } from './block.js';
import { BlockNoise, noiseField } from './noise.js';

/** Wind systems of ~550 km over ~1 day with ~140 km gustiness over ~6 h. */
export const WIND_NOISE = noiseField([
  { spacingDeg: 5, periodHours: 24, amplitude: 0.75, seed: 0x3101 },
  { spacingDeg: 1.25, periodHours: 6, amplitude: 0.25, seed: 0x3102 },
]);

/** Zonal-mean 2 m wind speed, m s-1. */
export function zonalWindSpeed(latDeg: number): number {
  const a = Math.abs(latDeg);
  return 1.6 + 2.2 * Math.exp(-(((a - 50) / 15) ** 2)) + 1.2 * Math.exp(-(((a - 15) / 8) ** 2));
}

/** Minimum 2 m wind speed, m s-1: ASCE-EWRI 2005 recommends not using speeds below 0.5 m s-1. */
export const MIN_WIND_SPEED = 0.5;

export function fillHourlyWind(block: Block, h0: number, nt: number, out: Float32Array): void {
  const { lats, lons, nRows, nCols, nCells, altitude, offsetHours } = block;
  const noise = new BlockNoise(WIND_NOISE, lats, lons);
  const buf = new Float32Array(nCells);
  const cellBase = new Float64Array(nCells);
  for (let r = 0; r < nRows; r++) {
    const z = zonalWindSpeed(lats[r] as number);
    for (let c = 0; c < nCols; c++) cellBase[r * nCols + c] = z * (1 + (altitude[r * nCols + c] as number) / 4000);
  }
  const diurnal = new Float64Array(nCols);
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    for (let c = 0; c < nCols; c++) diurnal[c] = 1 + 0.25 * Math.cos((2 * Math.PI * (h + (offsetHours[c] as number) - 14)) / 24);
    noise.at(h, buf);
    const o = t * nCells;
    for (let r = 0; r < nRows; r++) {
      for (let c = 0; c < nCols; c++) {
        const cell = r * nCols + c;
        const v = (cellBase[cell] as number) * (0.35 + 0.65 * (1 + (buf[cell] as number))) * (diurnal[c] as number);
        out[o + cell] = v > MIN_WIND_SPEED ? v : MIN_WIND_SPEED;
      }
    }
  }
}
