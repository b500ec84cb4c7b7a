/**
 * Hourly wind speed at 2 m. Zonal climatology (mid-latitude westerlies near 50 degrees, trade
 * winds near 15 degrees, calmer doldrums and subtropical highs), modulated by synoptic noise, a
 * diurnal cycle peaking in the early afternoon when the boundary layer is well mixed, and
 * exposure (higher ground is windier).
 */
import type { Block } from './block.js';
import { BlockNoise, noiseField } from './noise.js';

/** Wind systems of ~550 km over ~1 day with ~140 km gustiness over ~6 h. */
const WIND_NOISE = noiseField([
  { spacingDeg: 5, periodHours: 24, amplitude: 0.75, seed: 0x3101 },
  { spacingDeg: 1.25, periodHours: 6, amplitude: 0.25, seed: 0x3102 },
]);

/** Zonal-mean 2 m wind speed, m s-1. */
function zonalWindSpeed(latDeg: number): number {
  const a = Math.abs(latDeg);
  return 1.6 + 2.2 * Math.exp(-(((a - 50) / 15) ** 2)) + 1.2 * Math.exp(-(((a - 15) / 8) ** 2));
}

/** Minimum 2 m wind speed, m s-1: ASCE-EWRI 2005 recommends not using speeds below 0.5 m s-1. */
const MIN_WIND_SPEED = 0.5;

/**
 * The diurnal factor 1 + 0.25 cos(2 pi (local hour - 14) / 24) for the 24 UTC hours of a day at
 * one longitude (local mean solar hour = UTC + lon / 15): strongest in the early afternoon.
 */
function diurnalWindFactors(lonDeg: number): Float64Array {
  const out = new Float64Array(24);
  for (let i = 0; i < 24; i++) out[i] = 1 + 0.25 * Math.cos((Math.PI / 12) * (i + lonDeg / 15 - 14));
  return out;
}

/** How strongly the synoptic noise (in [-1, 1]) modulates the speed: factor 1 + gain x noise. */
const WIND_NOISE_GAIN = 0.55;

/** Wind speed of a cell from its base speed (zonal x exposure), noise and diurnal factor, floored. */
function windOf(cellBase: number, noise: number, diurnal: number): number {
  const v = cellBase * (1 + WIND_NOISE_GAIN * noise) * diurnal;
  return v > MIN_WIND_SPEED ? v : MIN_WIND_SPEED;
}

/** Zonal speed times exposure (higher ground is windier) per cell. */
function windBase(lats: ArrayLike<number>, nCols: number, altitude: Float32Array): Float64Array {
  const cellBase = new Float64Array(lats.length * nCols);
  for (let r = 0; r < lats.length; r++) {
    const z = zonalWindSpeed(lats[r] as number);
    for (let c = 0; c < nCols; c++) cellBase[r * nCols + c] = z * (1 + (altitude[r * nCols + c] as number) / 4000);
  }
  return cellBase;
}

/** Wind speed for hours h0 .. h0+nt-1 into a [t][cell] array. */
export function fillHourlyWind(block: Block, h0: number, nt: number, out: Float32Array): void {
  const { lats, lons, nRows, nCols, nCells, altitude } = block;
  const noise = new BlockNoise(WIND_NOISE, lats, lons);
  const buf = new Float32Array(nCells);
  const cellBase = windBase(lats, nCols, altitude);
  const diurnal = Array.from(lons, (lon) => diurnalWindFactors(lon));
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    const hour = h - 24 * Math.floor(h / 24);
    noise.at(h, buf);
    const o = t * nCells;
    for (let r = 0; r < nRows; r++) {
      for (let c = 0; c < nCols; c++) {
        const cell = r * nCols + c;
        out[o + cell] = windOf(cellBase[cell] as number, buf[cell] as number, diurnal[c]![hour] as number);
      }
    }
  }
}
