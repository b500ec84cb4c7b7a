/**
 * Cloud cover and moisture of the synthetic world. Cloud drives shortwave (Angstrom-Prescott),
 * the diurnal temperature range, and precipitation; dryness sets the dewpoint depression.
 */
import { type NoiseOctave, noiseField } from './noise.js';

/** Cloud systems of ~450 km over ~2 days with ~140 km features over ~18 h. */
export const CLOUD_NOISE = noiseField([
  { spacingDeg: 4, periodHours: 48, amplitude: 0.7, seed: 0xc101 },
  { spacingDeg: 1.25, periodHours: 18, amplitude: 0.45, seed: 0xc102 },
]);

/**
 * The synoptic part of the cloud field alone: the daily temperature range responds to the day's
 * overall cloudiness, not to passing 18 h features, and one octave halves the per-day cost of the
 * daily anchors.
 */
export const DAILY_CLOUD_NOISE = noiseField([CLOUD_NOISE.octaves[0] as NoiseOctave]);

/**
 * Zonal cloud climatology: cloudy ITCZ, clear subtropical highs near 25 degrees, cloudy storm
 * tracks near 55 degrees (the familiar three-cell pattern of zonal-mean cloud cover).
 */
export function cloudBias(latDeg: number): number {
  const a = Math.abs(latDeg);
  return 0.35 * Math.exp(-((a / 8) ** 2)) - 0.45 * Math.exp(-(((a - 25) / 10) ** 2)) + 0.25 * Math.exp(-(((a - 55) / 15) ** 2)) - 0.05;
}

/**
 * Cloud fraction in (0, 1) from the raw noise value: a sigmoid squashing around the bias. The
 * algebraic sigmoid z / sqrt(1 + z^2) (one sqrt, no exp: it runs per cell and hour) with the
 * logistic's slope at the centre (3/4 per unit of noise, as 1 / (1 + exp(-3 x)) had); its tails
 * approach 0 and 1 a little more slowly.
 */
export function cloudFraction(noise: number, bias: number): number {
  const z = 1.5 * (noise + bias);
  return 0.5 + (0.5 * z) / Math.sqrt(1 + z * z);
}

/** Air-mass dryness of ~700 km over ~3 days. */
export const DRYNESS_NOISE = noiseField([{ spacingDeg: 6, periodHours: 72, amplitude: 1, seed: 0xd201 }]);

/**
 * Dewpoint depression at the time of the daily minimum, K (>= 0.3): small in moist air masses,
 * larger in the subtropical deserts and under clear skies.
 */
export function dawnDewpointDepression(noise: number, latDeg: number, cloud: number): number {
  const u = 0.5 + 0.5 * noise;
  const arid = 4 * Math.exp(-(((Math.abs(latDeg) - 25) / 9) ** 2));
  return 0.3 + 6 * u * u + arid + 2 * (1 - cloud);
}
