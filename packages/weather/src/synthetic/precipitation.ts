/**
 * Hourly precipitation rate (mm h-1, liquid-water equivalent) and type.
 *
 * Rain falls where the cloud field is thick and a finer convective/frontal noise field is
 * positive; the amounts follow the place's monthly precipitation climate (geoclimate.ts,
 * docs/decisions/0083-precipitation-climate.md, 0087-precipitation-fitted-to-a-global-climatology.md),
 * fitted to a global climatology, so cold climates get light precipitation and deserts little.
 * The type follows the surface temperature and the strength of a
 * warm layer aloft, the partial-melting reasoning of Bourgouin (2000, Wea. Forecasting 15):
 *   T > 2 degC: rain.  0 < T <= 2: rain, or snow when the column is cold aloft.
 *   T <= 0: snow without a warm layer; ice pellets when a moderate warm layer melts flakes
 *   partially and they refreeze in the deep cold layer; freezing rain when a strong warm layer
 *   melts them fully and the cold layer is shallow (not below -10 degC at the surface).
 */
import type { Block } from './block.js';
import { yearAngle } from './climate.js';
import { CLOUD_NOISE, cloudFraction } from './clouds.js';
import { cloudBiasOfDay } from './cloud-climate.js';
import { precipitationClimateAt } from './precipitation-climate.js';
import { BlockNoise, noiseField } from './noise.js';

export const PRECIPITATION_TYPE = { none: 0, rain: 1, snow: 2, freezingRain: 3, icePellets: 4 } as const;

/** Precipitation cells of ~140 km over ~12 h with ~55 km showers over ~4 h, of the same spread everywhere (as the cloud's). */
const PRECIPITATION_NOISE = noiseField(
  [
    { spacingDeg: 1.25, periodHours: 12, amplitude: 0.6, seed: 0x5101 },
    { spacingDeg: 0.5, periodHours: 4, amplitude: 0.4, seed: 0x5102 },
  ],
  { evenSpread: true },
);

/** Warm-layer strength aloft, ~330 km over ~1 day, in [-1, 1]. */
const WARM_LAYER_NOISE = noiseField([{ spacingDeg: 3, periodHours: 24, amplitude: 1, seed: 0x5201 }]);

/** Threshold and weight of the precipitation noise in the rain intensity q = cloud + 0.35 noise - 0.8. */
const RAIN_NOISE_WEIGHT = 0.35;
const RAIN_CLOUD_THRESHOLD = 0.6;

/** The rain intensity index q^1.5 (0 when q <= 0): rain needs thick cloud, and more falls from thicker. */
function rainIndex(cloud: number, noise: number): number {
  const q = cloud + RAIN_NOISE_WEIGHT * noise - RAIN_CLOUD_THRESHOLD;
  return q > 0 ? q * Math.sqrt(q) : 0;
}

/**
 * Precipitation rate, mm h-1: the place's climatological rate for the time of year (mm a day /
 * 24, geoclimate.ts `precipitationClimateAt`) times the rain index over its mean at the cloud
 * bias of the place and time (`meanRainIndex`). So rain falls only under thick cloud, heavier
 * under thicker, and a month's total comes out at the climate's on average. Where the cloud is
 * rarely thick enough (deserts, the subtropical highs) the boost is capped: such places get less
 * than their climate rather than a few hours of absurd rates.
 */
export function precipitationRate(cloud: number, noise: number, climateMmPerDay: number, meanIndex: number): number {
  const r = rainIndex(cloud, noise);
  if (r === 0 || climateMmPerDay <= 0) return 0;
  return (climateMmPerDay / 24) * r * Math.min(MAX_BOOST, 1 / meanIndex);
}

/** Largest factor by which a rare rain hour stands for the others, so at most ~0.4 % of hours carry a climate's rain. */
const MAX_BOOST = 1000;

/** Cloud-bias grid of the mean rain index table: BIAS_MIN + i BIAS_STEP. */
const BIAS_MIN = -3,
  BIAS_STEP = 0.05,
  BIAS_COUNT = 121;
let meanIndexTable: Float64Array | null = null;

/**
 * Mean of the rain index over the cloud and precipitation noise at a cloud bias b: the
 * expectation E[rainIndex(cloudFraction(cn + b), pn)] over the two fields' values, estimated
 * once from a fixed sample (a 60 x 60 block of cells at 12 hours a week apart, 43,200 pairs) so
 * it is the same on every machine; linear between the table's points, at least 1e-9.
 */
export function meanRainIndex(bias: number): number {
  const table = (meanIndexTable ??= buildMeanIndexTable());
  const x = (bias - BIAS_MIN) / BIAS_STEP;
  if (x <= 0) return table[0]!;
  if (x >= BIAS_COUNT - 1) return table[BIAS_COUNT - 1]!;
  const i = Math.floor(x),
    f = x - i;
  return table[i]! * (1 - f) + table[i + 1]! * f;
}

function buildMeanIndexTable(): Float64Array {
  const lats = Float64Array.from({ length: 60 }, (_, i) => -59 + 2 * i);
  const lons = Float64Array.from({ length: 60 }, (_, j) => -177 + 6 * j);
  const cn = new BlockNoise(CLOUD_NOISE, lats, lons),
    pn = new BlockNoise(PRECIPITATION_NOISE, lats, lons);
  const c = new Float32Array(3600),
    p = new Float32Array(3600);
  const cloudNoise: number[] = [],
    rainNoise: number[] = [];
  for (let k = 0; k < 12; k++) {
    const h = 400_000 + 168 * k + 5 * k;
    cn.at(h, c);
    pn.at(h, p);
    for (let i = 0; i < 3600; i++) {
      cloudNoise.push(c[i]!);
      rainNoise.push(p[i]!);
    }
  }
  const table = new Float64Array(BIAS_COUNT);
  for (let b = 0; b < BIAS_COUNT; b++) {
    const bias = BIAS_MIN + b * BIAS_STEP;
    let s = 0;
    for (let i = 0; i < cloudNoise.length; i++) s += rainIndex(cloudFraction(cloudNoise[i]!, bias), rainNoise[i]!);
    table[b] = Math.max(1e-9, s / cloudNoise.length);
  }
  return table;
}

/** Precipitation type code (0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets). */
function precipitationType(rate: number, tempC: number, warmLayer: number): number {
  if (!(rate > 0)) return PRECIPITATION_TYPE.none;
  if (tempC > 2) return PRECIPITATION_TYPE.rain;
  if (tempC > 0) return warmLayer < -0.3 ? PRECIPITATION_TYPE.snow : PRECIPITATION_TYPE.rain;
  if (warmLayer > 0.45 && tempC > -10) return PRECIPITATION_TYPE.freezingRain;
  if (warmLayer > 0.2) return PRECIPITATION_TYPE.icePellets;
  return PRECIPITATION_TYPE.snow;
}

/**
 * Rate and/or type for hours h0 .. h0+nt-1, given the hourly air temperature and cloud fraction
 * of the same cells and hours ([t][cell]).
 */
export function fillHourlyPrecipitation(
  block: Block,
  h0: number,
  nt: number,
  temp: Float32Array,
  cloud: Float32Array,
  rateOut: Float32Array | null,
  typeOut: Float32Array | null,
): void {
  const { lats, lons, nCells } = block;
  const pNoise = new BlockNoise(PRECIPITATION_NOISE, lats, lons);
  const wNoise = typeOut ? new BlockNoise(WARM_LAYER_NOISE, lats, lons) : null;
  const pBuf = new Float32Array(nCells);
  const wBuf = new Float32Array(nCells);
  // The climate's daily amount and the mean rain index change with the season only: once a day.
  const climate = new Float64Array(nCells),
    bias = new Float64Array(nCells),
    boost = new Float64Array(nCells);
  let day = Number.NaN;
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    const d = Math.floor(h / 24);
    if (d !== day) {
      day = d;
      const angle = yearAngle(24 * d + 12),
        ca = Math.cos(angle),
        sa = Math.sin(angle);
      cloudBiasOfDay(block, d, bias);
      for (let c = 0; c < nCells; c++) {
        climate[c] = precipitationClimateAt(block, c, ca, sa);
        boost[c] = meanRainIndex(bias[c]!);
      }
    }
    pNoise.at(h, pBuf);
    if (wNoise) wNoise.at(h, wBuf);
    const o = t * nCells;
    for (let i = 0; i < nCells; i++) {
      const tc = temp[o + i] as number;
      const rate = precipitationRate(cloud[o + i] as number, pBuf[i] as number, climate[i]!, boost[i]!);
      if (rateOut) rateOut[o + i] = rate;
      if (typeOut) typeOut[o + i] = precipitationType(Math.fround(rate), tc, wBuf[i] as number);
    }
  }
}
