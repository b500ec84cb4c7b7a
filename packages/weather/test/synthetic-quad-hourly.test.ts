import { dayOfYear, extraterrestrialRadiationPeriod, hourAngle, inverseRelativeDistance, hourAnglesOfDay, hourSinesOfDay, longitudeRotation, periodRa, SOLAR_DAY, sunsetAt, sunsetRow } from '../src/synthetic/solar.js';
import type { TimeRange } from '../src/grid-source.js';
import { CLOUD_NOISE } from '../src/synthetic/clouds.js';
import { computeField } from '../src/synthetic/fields.js';
import { SyntheticSource } from '../src/synthetic/index.js';
import { BlockNoise, smoothstep } from '../src/synthetic/noise.js';
import { quadTemperatureAnchors } from '../src/synthetic/quad-extremes.js';
import { octaveCycle, octaveWeights } from '../src/synthetic/quad-noise.js';
import { generalAltitude, quadAltitude } from '../src/synthetic/terrain.js';
import { anchorDaysForHours, fillHourlyTemperature } from '../src/synthetic/temperature.js';
import { WIND_FLOOR_MARGIN } from '../src/synthetic/wind.js';
import { gridQuad } from './grid-quad.js';

const H = 3_600_000;
const NOW = Date.UTC(2025, 5, 15, 10, 20);
const DEG = Math.PI / 180;


/** The bilinear mix of a [t][4] field, as pointSeriesSync mixes the general path's field. */
function mix(field: Float32Array, w: readonly number[]): Float32Array {
  const out = new Float32Array(field.length / 4);
  for (let t = 0, o = 0; t < out.length; t++, o += 4) out[t] = w[0]! * field[o]! + w[1]! * field[o + 1]! + w[2]! * field[o + 2]! + w[3]! * field[o + 3]!;
  return out;
}

function hours(r: TimeRange): { h0: number; n: number } {
  const h0 = Math.ceil(r.startMs / H);
  return { h0, n: Math.floor(r.endMs / H) - h0 + 1 };
}

const POINTS: [number, number][] = [
  [-93.6319, 42.0308],
  [7.31, 45.12],
  [0, 0],
  [179.995, -33.4],
  [-180, -60.5],
  [14.995, 10.37],
  [100.003, 78.999],
  [-45.3, -75.2],
  // nights under an hour at the solstices (one hour holds sunset and sunrise)
  [25.73, 66.45],
  [-150.2, -66.46],
  // on noise lattice lines (1.25-10 degree spacings from -90/-180), so the cells straddle them
  [-100, 38],
  [20, 40],
  [12.5, -2.5],
];

const RANGES: TimeRange[] = [
  { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 11, 31, 23) },
  { startMs: Date.UTC(2024, 1, 27, 5), endMs: Date.UTC(2024, 2, 2, 17) },
  { startMs: Date.UTC(2019, 11, 30, 13), endMs: Date.UTC(2020, 0, 2, 3) },
  // three hours across a UTC midnight: segments shorter than an hour pair
  { startMs: Date.UTC(2022, 6, 9, 23), endMs: Date.UTC(2022, 6, 10, 1) },
];

describe('SyntheticSource: hourly ET inputs at a point (fused 2 x 2 pass, quad-hourly.ts)', () => {
  const src = new SyntheticSource({ now: () => NOW });

  it('shortwave is the general path (computeField + bilinear mix) bit for bit', () => {
    for (const [lon, lat] of POINTS) {
      const { block, w } = gridQuad(lon, lat);
      for (const r of RANGES) {
        const { h0, n } = hours(r);
        const p = src.pointSeriesSync('surface_downwelling_shortwave_flux_in_air', lon, lat, r).values;
        expect(Array.from(p)).toEqual(Array.from(mix(computeField('surface_downwelling_shortwave_flux_in_air', block, h0, n), w)));
      }
    }
  });

  it('air temperature and dewpoint are the block hourly curve on the 2 x 2 anchors bit for bit, and the general path to float32 rounding', () => {
    for (const [lon, lat] of POINTS) {
      const { block, w } = gridQuad(lon, lat);
      for (const r of RANGES) {
        const { h0, n } = hours(r);
        for (const dew of [false, true]) {
          const variable = dew ? 'dew_point_temperature' : 'air_temperature';
          const p = src.pointSeriesSync(variable, lon, lat, r).values;
          // The same anchors through temperature.ts's hourly curve (fillHourlyTemperature).
          const span = anchorDaysForHours(h0, n);
          const anchors = quadTemperatureAnchors(block, span.d0, span.nDays, dew);
          const field = new Float32Array(4 * n);
          fillHourlyTemperature(block, anchors, h0, n, dew ? null : field, dew ? field : null);
          expect(Array.from(p)).toEqual(Array.from(mix(field, w)));
          // The general block path: anchors from float32 noise, so equal to float32 rounding.
          const general = mix(computeField(variable, block, h0, n), w);
          let worst = 0;
          for (let t = 0; t < n; t++) worst = Math.max(worst, Math.abs(p[t]! - general[t]!));
          expect(worst).toBeLessThan(1e-4);
        }
      }
    }
  });

  it('one pass gives air temperature and dewpoint; the other is handed over once, to the same request only, never a shared array', () => {
    const r = RANGES[0]!;
    const s = new SyntheticSource({ now: () => NOW });
    const alone = (variable: 'air_temperature' | 'dew_point_temperature', lon: number) => new SyntheticSource({ now: () => NOW }).pointSeriesSync(variable, lon, 45, r).values;
    const air = s.pointSeriesSync('air_temperature', 10, 45, r).values;
    // a different point does not take it
    expect(Array.from(s.pointSeriesSync('dew_point_temperature', 10.001, 45, r).values)).toEqual(Array.from(alone('dew_point_temperature', 10.001)));
    s.pointSeriesSync('air_temperature', 10, 45, r);
    const a = s.pointSeriesSync('dew_point_temperature', 10, 45, r).values;
    const b = s.pointSeriesSync('dew_point_temperature', 10, 45, r).values;
    expect(a).not.toBe(b);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a)).toEqual(Array.from(alone('dew_point_temperature', 10)));
    // and the reverse: dewpoint first hands air temperature over
    const c = s.pointSeriesSync('air_temperature', 10, 45, r).values;
    expect(Array.from(c)).toEqual(Array.from(air));
    expect(c).not.toBe(air);
    for (let t = 0; t < a.length; t++) expect(a[t]!).toBeLessThanOrEqual(c[t]!);
  });

  it('wind speed and surface pressure equal the general path to float32 rounding', () => {
    for (const [lon, lat] of POINTS) {
      const { block, w } = gridQuad(lon, lat);
      for (const r of RANGES) {
        const { h0, n } = hours(r);
        for (const variable of ['wind_speed', 'surface_air_pressure'] as const) {
          const p = src.pointSeriesSync(variable, lon, lat, r).values;
          const general = mix(computeField(variable, block, h0, n), w);
          // a few float32 ulps: the fused path mixes node values before rounding, the general
          // path rounds each cell's value to float32 first
          let worst = 0;
          for (let t = 0; t < n; t++) worst = Math.max(worst, Math.abs(p[t]! - general[t]!) / Math.abs(general[t]!));
          expect(worst).toBeLessThanOrEqual(4 * 2 ** -23);
        }
      }
    }
  });

  it('reads the grid point\'s own values at a grid node', () => {
    const r = { startMs: Date.UTC(2023, 6, 1), endMs: Date.UTC(2023, 6, 8) };
    for (const variable of ['air_temperature', 'dew_point_temperature', 'surface_downwelling_shortwave_flux_in_air', 'wind_speed', 'surface_air_pressure'] as const) {
      const win = src.windowSync(variable, [7.31, 45.12, 7.31, 45.12], r).values;
      const p = src.pointSeriesSync(variable, 7.31, 45.12, r).values;
      for (let t = 0; t < win.length; t++) expect(Math.abs(p[t]! - win[t]!)).toBeLessThanOrEqual(4 * 2 ** -23 * Math.abs(win[t]!) + 1e-4);
    }
  });

  it('the wind floor never binds (model v3), so the speed is linear in the noise', () => {
    expect(WIND_FLOOR_MARGIN).toBeGreaterThan(0);
    // the calmest belt (subtropical highs, low ground) in a calm season, every cell and hour
    const w = src.windowSync('wind_speed', [20, -30.1, 20.2, -29.9], { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 1, 1) }).values;
    let lo = Infinity;
    for (const v of w) lo = Math.min(lo, v);
    expect(lo).toBeGreaterThan(0.5);
  });
});

describe('synthetic: 2 x 2 building blocks equal the general ones', () => {
  it('quad altitude equals the BlockNoise altitude bit for bit', () => {
    for (const [lon, lat] of POINTS) {
      const { block } = gridQuad(lon, lat);
      expect(Array.from(quadAltitude(block.lats, block.lons))).toEqual(Array.from(generalAltitude(block.lats, block.lons)));
    }
  });

  it('octave cycle weights are BlockNoise time weights bit for bit', () => {
    for (const o of CLOUD_NOISE.octaves) {
      const h0 = 467_123;
      const y = octaveCycle(o.periodHours, h0, 1, Math.floor(h0 / o.periodHours));
      for (let t = 0; t < 500; t++) {
        const h = h0 + t;
        const k = Math.floor(h / o.periodHours);
        expect(y.w[t % y.m]).toBe(smoothstep((h - k * o.periodHours) / o.periodHours));
        expect(y.k0[t % y.m]! + y.stride * Math.floor(t / y.m)).toBe(4 * (k - Math.floor(h0 / o.periodHours)));
        // the segment kernels' table, by the hour's place in its node interval
        expect(octaveWeights(o.periodHours)[h - k * o.periodHours]).toBe(y.w[t % y.m]);
      }
    }
    // and BlockNoise uses them: a whole-hour value does not depend on how the hour is reached
    const b = new BlockNoise(CLOUD_NOISE, Float64Array.of(45), Float64Array.of(7));
    const a = b.at(467_123, new Float32Array(1))[0];
    expect(new BlockNoise(CLOUD_NOISE, Float64Array.of(45), Float64Array.of(7)).at(467_123, new Float32Array(1))[0]).toBe(a);
  });

  it('hour angles and period-end sines of a day equal hourAngle and Math.sin', () => {
    const s1 = new Float64Array(24), s2 = new Float64Array(24), lo = new Float64Array(24), hi = new Float64Array(24);
    for (const lon of [-179.99, -100.37, 0, 12.5, 150, 179.99, 180]) {
      for (const day of [19000, 19100, 19250, 19357]) {
        const j = dayOfYear(day);
        const sc = SOLAR_DAY.sc[j]!;
        hourSinesOfDay(longitudeRotation(lon), j, s1, s2);
        hourAnglesOfDay(lon, sc, lo, hi);
        for (let i = 0; i < 24; i++) {
          const w = hourAngle(24 * day + i, lon, sc);
          // hourAngle sums the hour since 1970 (~4.7e5), whose last bit is ~6e-11 h: ~1e-11 rad
          expect(lo[i]).toBeCloseTo(w - Math.PI / 24, 9);
          expect(hi[i]).toBeCloseTo(w + Math.PI / 24, 9);
          expect(s1[i]).toBeCloseTo(Math.sin(lo[i]!), 14);
          expect(s2[i]).toBeCloseTo(Math.sin(hi[i]!), 14);
        }
      }
    }
  });

  it('periodRa from the sines equals extraterrestrialRadiationPeriod, sunrise, sunset, nights under an hour, polar day and night included', () => {
    const s1 = new Float64Array(24), s2 = new Float64Array(24), lo = new Float64Array(24), hi = new Float64Array(24);
    // 66.45 N / S: nights of ~0.8 h at the summer solstice, so one hour holds sunset and sunrise
    for (const lat of [-89, -70, -66.45, -33.4, 0, 45.12, 66.45, 69, 80]) {
      const row = sunsetRow(lat);
      for (const j of [1, 80, 172, 264, 355]) {
        sunsetAt(row, lat, j);
        const ws = row[2 * j]!, sinWs = row[2 * j + 1]!;
        const sinD = SOLAR_DAY.sinDecl[j]!, cosD = SOLAR_DAY.cosDecl[j]!, k = SOLAR_DAY.k[j]!;
        const dr = inverseRelativeDistance(j);
        for (const lon of [-75.5, 0, 100]) {
          hourSinesOfDay(longitudeRotation(lon), j, s1, s2);
          hourAnglesOfDay(lon, SOLAR_DAY.sc[j]!, lo, hi);
          for (let i = 0; i < 24; i++) {
            const ra = periodRa(lo[i]!, hi[i]!, s1[i]!, s2[i]!, k, Math.sin(lat * DEG) * sinD, Math.cos(lat * DEG) * cosD, ws, sinWs);
            const ref = extraterrestrialRadiationPeriod(Math.sin(lat * DEG), Math.cos(lat * DEG), sinD, cosD, dr, lo[i]!, hi[i]!, ws);
            expect(ra).toBeCloseTo(ref, 12);
          }
        }
      }
    }
  });
});
