/**
 * Hourly precipitation rate (mm h-1, liquid-water equivalent) and type.
 *
 * Rain falls where the cloud field is thick and a finer convective/frontal noise field is
 * positive; the rate scales with the moisture the air can hold (~6 % per K, Clausius-Clapeyron),
 * so cold precipitation is light. The type follows the surface temperature and the strength of a
 * warm layer aloft, the partial-melting reasoning of Bourgouin (2000, Wea. Forecasting 15):
 *   T > 2 degC: rain.  0 < T <= 2: rain, or snow when the column is cold aloft.
 *   T <= 0: snow without a warm layer; ice pellets when a moderate warm layer melts flakes
 *   partially and they refreeze in the deep cold layer; freezing rain when a strong warm layer
 *   melts them fully and the cold layer is shallow (not below -10 degC at the surface).
 */
import type { Block } from './block.js';
import { BlockNoise, noiseField } from './noise.js';

export const PRECIPITATION_TYPE = { none: 0, rain: 1, snow: 2, freezingRain: 3, icePellets: 4 } as const;

/** Precipitation cells of ~140 km over ~12 h with ~55 km showers over ~4 h. */
const PRECIPITATION_NOISE = noiseField([
  { spacingDeg: 1.25, periodHours: 12, amplitude: 0.6, seed: 0x5101 },
  { spacingDeg: 0.5, periodHours: 4, amplitude: 0.4, seed: 0x5102 },
]);

/** Warm-layer strength aloft, ~330 km over ~1 day, in [-1, 1]. */
const WARM_LAYER_NOISE = noiseField([{ spacingDeg: 3, periodHours: 24, amplitude: 1, seed: 0x5201 }]);

/** Precipitation rate, mm h-1, from cloud fraction, precipitation noise and air temperature. */
export function precipitationRate(cloud: number, noise: number, tempC: number): number {
  const q = cloud + 0.35 * noise - 0.8;
  if (q <= 0) return 0;
  let moisture = Math.exp(0.06 * (tempC - 15));
  if (moisture < 0.1) moisture = 0.1;
  else if (moisture > 2) moisture = 2;
  return 8 * q * Math.sqrt(q) * moisture;
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
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    pNoise.at(h, pBuf);
    if (wNoise) wNoise.at(h, wBuf);
    const o = t * nCells;
    for (let i = 0; i < nCells; i++) {
      const tc = temp[o + i] as number;
      const rate = precipitationRate(cloud[o + i] as number, pBuf[i] as number, tc);
      if (rateOut) rateOut[o + i] = rate;
      if (typeOut) typeOut[o + i] = precipitationType(Math.fround(rate), tc, wBuf[i] as number);
    }
  }
}
