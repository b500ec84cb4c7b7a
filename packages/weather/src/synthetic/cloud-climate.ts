/**
 * The cloud field's bias from a place's climate (geoclimate.ts CellClimate): its deserts, its
 * monsoon and how wet its month is (clouds.ts, docs/decisions/0083-precipitation-climate.md).
 */
import { yearAngle } from './climate.js';
import { cloudBias } from './clouds.js';
import type { CellClimate } from './geoclimate.js';

/**
 * The cloud field's bias at a point and time (clouds.ts `cloudFraction`): the latitude's zonal
 * bias (clouds.ts `cloudBias`, passed in: it is per row) shifted by the place's deserts and
 * monsoon, and at least the bias a month of the place's precipitation climate needs
 * (wetCloudBias): rain falls only from thick cloud (precipitation.ts), so a wet month is a cloudy
 * one wherever it is, under the subtropical highs' latitudes too (the humid subtropical east
 * coasts: Florida, southern China, southern Brazil).
 */
export function cloudBiasAt(
  c: Pick<CellClimate, 'cloudShift' | 'monsoonCos' | 'monsoonSin' | 'precipLog' | 'precipCos' | 'precipSin'>,
  k: number,
  zonalBias: number,
  cosAngle: number,
  sinAngle: number,
): number {
  return cloudBiasOf(
    zonalBias + c.cloudShift[k]!,
    c.monsoonCos[k]!,
    c.monsoonSin[k]!,
    c.precipLog[k]!,
    c.precipCos[k]!,
    c.precipSin[k]!,
    cosAngle,
    sinAngle,
  );
}

/**
 * cloudBiasAt from a place's static bias (its zonal bias plus its shift, the same every day) and
 * its five seasonal terms, for loops that read them once for many days.
 */
export function cloudBiasOf(
  staticBias: number,
  monsoonCos: number,
  monsoonSin: number,
  precipLog: number,
  precipCos: number,
  precipSin: number,
  cosAngle: number,
  sinAngle: number,
): number {
  const geographic = staticBias + monsoonCos * cosAngle + monsoonSin * sinAngle;
  const wet = wetCloudBias(precipLog + precipCos * cosAngle + precipSin * sinAngle);
  return geographic > wet ? geographic : wet;
}

/**
 * cloudBiasAt for every cell of a block on a UTC day (at its noon), into out: the annual cycles
 * move the bias by a few hundredths a day, so hourly fields take it once a day.
 */
export function cloudBiasOfDay(
  block: Pick<CellClimate, 'cloudShift' | 'monsoonCos' | 'monsoonSin' | 'precipLog' | 'precipCos' | 'precipSin'> & {
    lats: ArrayLike<number>;
    nCols: number;
  },
  day: number,
  out: Float64Array,
): Float64Array {
  const angle = yearAngle(24 * day + 12),
    ca = Math.cos(angle),
    sa = Math.sin(angle);
  for (let r = 0; r < block.lats.length; r++) {
    const zonal = cloudBias(block.lats[r]!);
    for (let c = r * block.nCols, e = c + block.nCols; c < e; c++) out[c] = cloudBiasAt(block, c, zonal, ca, sa);
  }
  return out;
}

/**
 * The least cloud bias of a month of ln(P + 3) = logMm, P in mm: -0.6 at 15 mm (cloud thick
 * enough to rain a few hours a month: precipitation.ts MAX_BOOST), rising linearly in the
 * logarithm to 0 (half the sky covered on average) at 200 mm and no further.
 */
function wetCloudBias(logMm: number): number {
  const b = WET_CLOUD_BIAS_AT_LOW + WET_CLOUD_SLOPE * (logMm - WET_CLOUD_LOW_LOG);
  return b < 0 ? b : 0;
}
const WET_CLOUD_BIAS_AT_LOW = -0.6;
const WET_CLOUD_LOW_LOG = Math.log(15 + 3);
const WET_CLOUD_SLOPE = -WET_CLOUD_BIAS_AT_LOW / (Math.log(200 + 3) - WET_CLOUD_LOW_LOG);
