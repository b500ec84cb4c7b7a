/**
 * Procedural terrain: the static `surface_altitude` field (m above sea level), the synthetic
 * world's geography (block.ts `Geography`).
 *
 * Two static noise fields: a large-scale relief (continents, plateaus and ranges at 2,000 to
 * 120 km) and a fine relief (hills and valleys at 30 to 2 km). The fine relief is what gives a
 * 1 km grid real variation across a farm-sized field; its amplitude grows with the large-scale
 * height, so mountains are rougher than plains. Negative heights are clipped to 0 (coastal plains
 * at sea level; the synthetic world has no oceans).
 */
import { BlockNoise, noiseField } from './noise.js';

/** Continental relief, lattice spacings dividing 360 degrees. */
const LARGE_RELIEF = noiseField([
  { spacingDeg: 18, periodHours: 0, amplitude: 1, seed: 0x7e11a1 },
  { spacingDeg: 4.5, periodHours: 0, amplitude: 0.5, seed: 0x7e11a2 },
  { spacingDeg: 1.125, periodHours: 0, amplitude: 0.3, seed: 0x7e11a3 },
]);

/** Hills and valleys: ~30 km, ~8 km and ~2 km. */
const FINE_RELIEF = noiseField([
  { spacingDeg: 0.28125, periodHours: 0, amplitude: 1, seed: 0x7e11b1 },
  { spacingDeg: 0.0703125, periodHours: 0, amplitude: 0.6, seed: 0x7e11b2 },
  { spacingDeg: 0.017578125, periodHours: 0, amplitude: 0.35, seed: 0x7e11b3 },
]);

/** Altitude from the two relief values (each roughly in [-1.8, 1.8]). */
function altitudeFromRelief(large: number, fine: number): number {
  const z = 250 + 1100 * large + (90 + 220 * Math.max(0, large)) * fine;
  return z > 0 ? z : 0;
}

/** Altitude (m) at every cell of a block (row-major lats x lons). */
export function terrainAltitude(lats: ArrayLike<number>, lons: ArrayLike<number>): Float32Array {
  const n = lats.length * lons.length;
  const large = new BlockNoise(LARGE_RELIEF, lats, lons).at(0, new Float32Array(n));
  const fine = new BlockNoise(FINE_RELIEF, lats, lons).at(0, new Float32Array(n));
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = altitudeFromRelief(large[i]!, fine[i]!);
  return out;
}
