import { cloudBias, cloudFraction } from '../src/synthetic/clouds.js';
import { SyntheticSource } from '../src/synthetic/index.js';
import { smoothstep } from '../src/synthetic/noise.js';

describe('synthetic clouds', () => {
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
    // central slope, 3/4 per unit of noise
    expect((cloudFraction(1e-6, 0) - cloudFraction(-1e-6, 0)) / 2e-6).toBeCloseTo(0.75, 6);
  });

  it('keeps the zonal cloud climatology: cloudy ITCZ and storm tracks, clear subtropics, with clear and overcast hours', () => {
    const src = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });
    const year = { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 11, 31, 23) };
    // Mean cloud from Rs / Rso = 1 - (2/3) cloud over the lit hours of a year, per latitude.
    const cloudAt = (lon: number, lat: number): { mean: number; clear: number; overcast: number } => {
      const rs = src.windowSync('surface_downwelling_shortwave_flux_in_air', [lon, lat, lon, lat], year).values;
      const rso = src.windowSync('surface_downwelling_shortwave_flux_in_air_assuming_clear_sky', [lon, lat, lon, lat], year).values;
      let sum = 0,
        n = 0,
        clear = 0,
        overcast = 0;
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
      const itcz = cloudAt(lon, 0),
        subtropics = cloudAt(lon, 25),
        storms = cloudAt(lon, 55),
        south = cloudAt(lon, -25);
      expect(itcz.mean).toBeGreaterThan(subtropics.mean + 0.2);
      expect(storms.mean).toBeGreaterThan(subtropics.mean + 0.2);
      expect(south.mean).toBeLessThan(itcz.mean - 0.2);
      // never always clear (the eastern Sahara, the clearest sky on Earth, comes nearest) nor always overcast
      for (const c of [itcz, subtropics, storms, south]) {
        expect(c.mean).toBeGreaterThan(0.03);
        expect(c.mean).toBeLessThan(0.95);
      }
      expect(subtropics.clear).toBeGreaterThan(0);
      expect(subtropics.overcast).toBeLessThan(0.05);
      expect(itcz.overcast).toBeGreaterThan(0);
    }
    // Under the subtropical high over the Sahara the sky is clear most of the time; wet subtropical
    // climates (southern China, the trade-wind Atlantic) are cloudier (geoclimate.ts cloudBiasAt).
    expect(cloudAt(20, 25).clear).toBeGreaterThan(0.3);
    expect(cloudAt(110, 25).mean).toBeGreaterThan(cloudAt(20, 25).mean + 0.2);
    // the zonal bias the curve squashes: lowest in the subtropics
    expect(cloudBias(25)).toBeLessThan(cloudBias(0));
    expect(cloudBias(25)).toBeLessThan(cloudBias(55));
  });
});
