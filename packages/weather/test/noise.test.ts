// Value noise of the synthetic world (src/synthetic/noise.ts): fields of the same spread at every
// place (evenSpread), for the fields read through thresholds (cloud, rain).
import { BlockNoise, noiseAt, noiseField } from '../src/synthetic/noise.js';

const octave = { spacingDeg: 4, periodHours: 24, amplitude: 1, seed: 0x7e57 };
const plain = noiseField([octave]);
const even = noiseField([octave], { evenSpread: true });

/** Standard deviation over 20,000 hours of a field at a point. */
function spreadAt(field: typeof plain, lat: number, lon: number): number {
  let s = 0,
    s2 = 0;
  const n = 20_000;
  for (let h = 0; h < n; h++) {
    const v = noiseAt(field, lat, lon, 400_000 + h);
    s += v;
    s2 += v * v;
  }
  return Math.sqrt(s2 / n - (s / n) ** 2);
}

describe('value noise', () => {
  // A node of the 4 degree lattice (columns from 180 W, rows from 90 S) and the point mid-way
  // between four nodes: the blend of four node values there has a quarter of a node value's variance.
  const node: [number, number] = [2, -4],
    midway: [number, number] = [4, -2];

  it('spreads half as much mid-way between lattice nodes as at a node, as a blend of node values does', () => {
    const ratio = spreadAt(plain, ...midway) / spreadAt(plain, ...node);
    expect(ratio).toBeGreaterThan(0.42);
    expect(ratio).toBeLessThan(0.58);
  });

  it('spreads alike everywhere when the field asks for it (evenSpread)', () => {
    const ratio = spreadAt(even, ...midway) / spreadAt(even, ...node);
    expect(ratio).toBeGreaterThan(0.92);
    expect(ratio).toBeLessThan(1.08);
  });

  it('gives the same values over a block as point by point, evenSpread or not', () => {
    const lats = Float64Array.from([-3.3, 0.1, 2.5, 47.9]),
      lons = Float64Array.from([-179.6, -4, 0.7, 123.45, 179.9]);
    for (const field of [plain, even]) {
      const block = new BlockNoise(field, lats, lons);
      for (const h of [400_000, 400_013.5]) {
        const out = block.at(h, new Float32Array(lats.length * lons.length));
        lats.forEach((lat, r) => lons.forEach((lon, c) => expect(out[r * lons.length + c]).toBeCloseTo(noiseAt(field, lat, lon, h), 5)));
      }
    }
  });
});
