/**
 * Cloud cover and moisture of the synthetic world. Cloud drives shortwave (Angstrom-Prescott),
 * the diurnal temperature range, and precipitation; dryness sets the dewpoint depression.
 */
import { type NoiseOctave, noiseField } from './noise.js';

/**
 * Cloud systems of ~450 km over ~2 days with ~140 km features over ~18 h, of the same spread
 * everywhere (noise.ts `spreadFactor`: cloud is read through thresholds, for rain).
 */
export const CLOUD_NOISE = noiseField(
  [
    { spacingDeg: 4, periodHours: 48, amplitude: 0.7, seed: 0xc101 },
    { spacingDeg: 1.25, periodHours: 18, amplitude: 0.45, seed: 0xc102 },
  ],
  { evenSpread: true },
);

/**
 * The synoptic part of the cloud field alone: the daily temperature range responds to the day's
 * overall cloudiness, not to passing 18 h features, and one octave halves the per-day cost of the
 * daily anchors.
 */
export const DAILY_CLOUD_NOISE = noiseField([CLOUD_NOISE.octaves[0] as NoiseOctave], { evenSpread: true });

/**
 * Zonal cloud climatology: cloudy ITCZ, clear subtropical highs near 25 degrees, cloudy storm
 * tracks near 55 degrees (the familiar three-cell pattern of zonal-mean cloud cover).
 */
export function cloudBias(latDeg: number): number {
  const a = Math.abs(latDeg);
  return 0.35 * Math.exp(-((a / 8) ** 2)) - 0.45 * Math.exp(-(((a - 25) / 10) ** 2)) + 0.25 * Math.exp(-(((a - 55) / 15) ** 2)) - 0.05;
}

/**
 * Cloud fraction in [0, 1] from the raw noise value: the smoothstep of noise + bias over [-1, 1],
 * 0.5 + 0.75 x - 0.25 x^3 for x = noise + bias, 0 below -1 and 1 above. Its central slope is 3/4
 * per unit of noise, it is C1 where it meets 0 and 1, and it reaches them: a clear sky where
 * noise + bias <= -1 (subtropical highs), overcast where it is >= 1 (ITCZ, storm tracks).
 */
export function cloudFraction(noise: number, bias: number): number {
  const x = noise + bias;
  if (x <= -1) return 0;
  if (x >= 1) return 1;
  return 0.5 + x * (0.75 - 0.25 * x * x);
}

/** Air-mass dryness of ~700 km over ~3 days. */
export const DRYNESS_NOISE = noiseField([{ spacingDeg: 6, periodHours: 72, amplitude: 1, seed: 0xd201 }]);

/** The desert part of the dawn dewpoint depression at a latitude, K: up to 4 near 25 degrees. */
export function aridDepression(latDeg: number): number {
  return 4 * Math.exp(-(((Math.abs(latDeg) - 25) / 9) ** 2));
}

/**
 * Dewpoint depression at the time of the daily minimum, K (>= 0.3): small in moist air masses,
 * larger in the subtropical deserts (arid = aridDepression(lat), taken once per grid row: it is
 * the only part that depends on latitude and holds the exp) and under clear skies.
 */
export function dawnDewpointDepression(noise: number, arid: number, cloud: number): number {
  const u = 0.5 + 0.5 * noise;
  return 0.3 + 6 * u * u + arid + 2 * (1 - cloud);
}
