/**
 * Procedural terrain: the static `surface_altitude` field (m above sea level).
 *
 * Two static noise fields: a large-scale relief (continents, plateaus and ranges at 2,000 to
 * 120 km) and a fine relief (hills and valleys at 30 to 2 km). The fine relief is what gives a
 * 1 km grid real variation across a farm-sized field; its amplitude grows with the large-scale
 * height, so mountains are rougher than plains. Negative heights are clipped to 0 (coastal plains
 * at sea level; the synthetic world has no oceans).
 */
import { BlockNoise, type NoiseField, noiseField } from './noise.js';
import { quadNodes } from './quad-noise.js';

/** Continental relief, lattice spacings dividing 360 degrees. */
export const LARGE_RELIEF = noiseField([
  { spacingDeg: 18, periodHours: 0, amplitude: 1, seed: 0x7e11a1 },
  { spacingDeg: 4.5, periodHours: 0, amplitude: 0.5, seed: 0x7e11a2 },
  { spacingDeg: 1.125, periodHours: 0, amplitude: 0.3, seed: 0x7e11a3 },
]);

/** Hills and valleys: ~30 km, ~8 km and ~2 km. */
export const FINE_RELIEF = noiseField([
  { spacingDeg: 0.28125, periodHours: 0, amplitude: 1, seed: 0x7e11b1 },
  { spacingDeg: 0.0703125, periodHours: 0, amplitude: 0.6, seed: 0x7e11b2 },
  { spacingDeg: 0.017578125, periodHours: 0, amplitude: 0.35, seed: 0x7e11b3 },
]);

/** Altitude from the two relief values (each roughly in [-1.8, 1.8]). */
export function altitudeFromRelief(large: number, fine: number): number {
  const z = 250 + 1100 * large + (90 + 220 * Math.max(0, large)) * fine;
  return z > 0 ? z : 0;
}

/** Altitude (m) at every cell of a block (row-major lats x lons). */
export function blockAltitude(lats: ArrayLike<number>, lons: ArrayLike<number>): Float32Array {
  if (lats.length === 2 && lons.length === 2) return quadAltitude(lats, lons);
  return generalAltitude(lats, lons);
}

/** blockAltitude through BlockNoise, for any block. */
export function generalAltitude(lats: ArrayLike<number>, lons: ArrayLike<number>): Float32Array {
  const n = lats.length * lons.length;
  const large = new BlockNoise(LARGE_RELIEF, lats, lons).at(0, new Float32Array(n));
  const fine = new BlockNoise(FINE_RELIEF, lats, lons).at(0, new Float32Array(n));
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = altitudeFromRelief(large[i] as number, fine[i] as number);
  return out;
}

/**
 * blockAltitude for a 2 x 2 block (a point series' four grid points): each static octave's
 * lattice corners hashed once for the four cells (quad-noise.ts), summed in float32 as
 * BlockNoise.at sums them, so the bits are generalAltitude's (test/synthetic-quad-hourly.test.ts).
 * Every point series builds one such block; BlockNoise's set-up cost more than the six octaves.
 */
export function quadAltitude(lats: ArrayLike<number>, lons: ArrayLike<number>): Float32Array {
  const large = quadStatic(LARGE_RELIEF, lats, lons), fine = quadStatic(FINE_RELIEF, lats, lons);
  const out = new Float32Array(4);
  for (let i = 0; i < 4; i++) out[i] = altitudeFromRelief(large[i]!, fine[i]!);
  return out;
}

function quadStatic(field: NoiseField, lats: ArrayLike<number>, lons: ArrayLike<number>): Float32Array {
  const acc = new Float32Array(4);
  for (const o of field.octaves) {
    const v = quadNodes(o, { lats, lons }, 0, 1);
    for (let i = 0; i < 4; i++) acc[i] = acc[i]! + o.amplitude * v[i]!;
  }
  return acc;
}
