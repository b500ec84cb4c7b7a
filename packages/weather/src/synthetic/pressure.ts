/**
 * Hourly surface air pressure, kPa: the standard-atmosphere pressure at the terrain height
 * (ASCE-EWRI 2005 eq. 3 / FAO-56 eq. 7: P = 101.3 ((293 - 0.0065 z) / 293)^5.26) plus synoptic
 * highs and lows of about +-1.5 kPa.
 */
import type { Block } from './block.js';
import { BlockNoise, noiseField } from './noise.js';

const PRESSURE_NOISE = noiseField([
  { spacingDeg: 10, periodHours: 72, amplitude: 1.1, seed: 0x9101 },
  { spacingDeg: 3, periodHours: 24, amplitude: 0.4, seed: 0x9102 },
]);

/** Standard-atmosphere surface pressure at elevation z m, kPa. */
function pressureAtElevation(z: number): number {
  return 101.3 * Math.pow((293 - 0.0065 * z) / 293, 5.26);
}

export function fillHourlyPressure(block: Block, h0: number, nt: number, out: Float32Array): void {
  const { lats, lons, nCells, altitude } = block;
  const noise = new BlockNoise(PRESSURE_NOISE, lats, lons);
  const buf = new Float32Array(nCells);
  const base = new Float64Array(nCells);
  for (let i = 0; i < nCells; i++) base[i] = pressureAtElevation(altitude[i] as number);
  for (let t = 0; t < nt; t++) {
    noise.at(h0 + t, buf);
    const o = t * nCells;
    for (let i = 0; i < nCells; i++) out[o + i] = (base[i] as number) + (buf[i] as number);
  }
}
