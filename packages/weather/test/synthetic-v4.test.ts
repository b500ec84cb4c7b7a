import { makeBlock } from '../src/synthetic/block.js';
import { dayOfYearOf, dayOfYearTable } from '../src/synthetic/calendar.js';
import { cloudBias, cloudFraction, CLOUD_NOISE, DAILY_CLOUD_NOISE } from '../src/synthetic/clouds.js';
import { TEMPERATURE_ANOMALY } from '../src/synthetic/climate.js';
import { SyntheticSource } from '../src/synthetic/index.js';
import { smoothstep } from '../src/synthetic/noise.js';
import { quadNodes } from '../src/synthetic/quad-noise.js';
import { kernelMemory } from '../src/synthetic/kernels/kernel-memory.js';
import { scaledNodesInto } from '../src/synthetic/quad-extremes.js';

/**
 * Synthetic model v4 (docs/decisions.md "Weather: synthetic world and catalog"): the cloud curve,
 * and the building blocks of the faster point-series passes.
 */
describe('synthetic model v4: cloud fraction', () => {
  it('is the smoothstep of noise + bias over [-1, 1]: 0 and 1 beyond, central slope 3/4, monotone', () => {
    for (let x = -1.5; x <= 1.5; x += 1 / 64) {
      const c = cloudFraction(x, 0);
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(1);
      expect(c).toBeCloseTo(smoothstep(Math.min(1, Math.max(0, (x + 1) / 2))), 14);
      expect(cloudFraction(x + 1 / 64, 0)).toBeGreaterThanOrEqual(c);
      expect(cloudFraction(x - 0.3, 0.3)).toBeCloseTo(c, 14);
    }
    expect(cloudFraction(-1, 0)).toBe(0);
    expect(cloudFraction(1, 0)).toBe(1);
    expect(cloudFraction(0, 0)).toBe(0.5);
    // the logistic's and v2-v3's central slope, 3/4 per unit of noise
    expect((cloudFraction(1e-6, 0) - cloudFraction(-1e-6, 0)) / 2e-6).toBeCloseTo(0.75, 6);
  });

  it('keeps the zonal cloud climatology: cloudy ITCZ and storm tracks, clear subtropics, with clear and overcast hours', () => {
    const src = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });
    const year = { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 11, 31, 23) };
    // Mean cloud from Rs / Rso = 1 - (2/3) cloud over the lit hours of a year, per latitude.
    const cloudAt = (lon: number, lat: number): { mean: number; clear: number; overcast: number } => {
      const rs = src.windowSync('surface_downwelling_shortwave_flux_in_air', [lon, lat, lon, lat], year).values;
      const rso = src.windowSync('surface_downwelling_shortwave_flux_in_air_assuming_clear_sky', [lon, lat, lon, lat], year).values;
      let sum = 0, n = 0, clear = 0, overcast = 0;
      for (let t = 0; t < rs.length; t++) {
        if (!(rso[t]! > 1)) continue;
        const c = 1.5 * (1 - rs[t]! / rso[t]!);
        sum += c;
        n++;
        if (c < 1e-3) clear++;
        if (c > 1 - 1e-3) overcast++;
      }
      return { mean: sum / n, clear: clear / n, overcast: overcast / n };
    };
    for (const lon of [-60, 20, 110]) {
      const itcz = cloudAt(lon, 0), subtropics = cloudAt(lon, 25), storms = cloudAt(lon, 55), south = cloudAt(lon, -25);
      expect(itcz.mean).toBeGreaterThan(subtropics.mean + 0.2);
      expect(storms.mean).toBeGreaterThan(subtropics.mean + 0.2);
      expect(south.mean).toBeLessThan(itcz.mean - 0.2);
      for (const c of [itcz, subtropics, storms, south]) {
        expect(c.mean).toBeGreaterThan(0.05);
        expect(c.mean).toBeLessThan(0.95);
      }
      expect(subtropics.clear).toBeGreaterThan(0.01);
      expect(subtropics.overcast).toBeLessThan(0.05);
      expect(itcz.overcast).toBeGreaterThan(0);
    }
    // the zonal bias the curve squashes: lowest in the subtropics
    expect(cloudBias(25)).toBeLessThan(cloudBias(0));
    expect(cloudBias(25)).toBeLessThan(cloudBias(55));
  });
});

describe('synthetic model v4: fused building blocks', () => {
  const blocks: [number, number, number, number][] = [
    [42.03, 42.04, -93.64, -93.63],
    [-33.4, -33.39, 179.99, -180],
    // straddling the 2.5 and 1.25 degree lattice lines
    [-2.5, -2.49, 12.49, 12.5],
    [40, 40.01, 20, 20.01],
  ];

  it('row-scaled double node values (the scaledNodes kernel, or the straddling fallback) are quadNodes times the row factor, with their differences', () => {
    const mem = kernelMemory;
    for (const [a, b, c, d] of blocks) {
      const block = makeBlock(Float64Array.of(a, b), Float64Array.of(c, d));
      for (const o of [...TEMPERATURE_ANOMALY.octaves, ...DAILY_CLOUD_NOISE.octaves, ...CLOUD_NOISE.octaves]) {
        const kMin = 4800, nK = 40;
        const ref = quadNodes(o, block, kMin, nK);
        mem.reset();
        const at = mem.scratch(64 * nK);
        scaledNodesInto(o, block, kMin, nK, 1.7, -0.4, at);
        const rec = mem.f64(at, 8 * nK);
        for (let k = 0; k < nK; k++) {
          for (let cell = 0; cell < 4; cell++) {
            // records are [value, difference][column][row]; quadNodes is [cell], cells row-major
            const row = cell >> 1, col = cell & 1, i = 8 * k + 2 * col + row;
            const s = row === 0 ? 1.7 : -0.4;
            // quadNodes rounds to float32, the scaled nodes stay in double
            expect(Math.abs(rec[i]! - s * ref[4 * k + cell]!)).toBeLessThanOrEqual(2 ** -23);
            if (k < nK - 1) expect(rec[i + 4]).toBe(rec[i + 8]! - rec[i]!);
          }
        }
      }
    }
  });

  it('the day-of-year table is the calendar, inside and outside its span', () => {
    for (const [d0, n] of [[16436, 3653], [15999, 10], [32380, 10], [0, 800], [19000, 1]] as const) {
      const { table, offset } = dayOfYearTable(d0, n);
      for (let i = 0; i < n; i++) expect(table[offset + i]).toBe(dayOfYearOf(d0 + i));
    }
  });
});
