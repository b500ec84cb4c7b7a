import type { TimeRange } from '../src/grid-source.js';
import { makeBlock } from '../src/synthetic/block.js';
import { computeDailyExtremes, computeField } from '../src/synthetic/fields.js';
import { SyntheticSource } from '../src/synthetic/index.js';
import { quadTemperatureAnchors } from '../src/synthetic/quad-extremes.js';
import { temperatureAnchors } from '../src/synthetic/temperature.js';
import { gridQuad } from './grid-quad.js';

const D = 86_400_000;
const NOW = Date.UTC(2025, 5, 15, 10, 20);

/**
 * The general path, as pointSeriesSync would compute daily extremes without the fused 2 x 2 pass:
 * computeField over the block of the four surrounding grid points, then the bilinear mix.
 */
function reference(variable: 'air_temperature_daily_max' | 'air_temperature_daily_min', lon: number, lat: number, range: TimeRange): Float32Array {
  const { block, w } = gridQuad(lon, lat);
  const d0 = Math.ceil(range.startMs / D), n = Math.floor(range.endMs / D) - d0 + 1;
  const field = computeField(variable, block, d0, n);
  const [w00, w01, w10, w11] = w;
  const out = new Float32Array(n);
  for (let t = 0, o = 0; t < n; t++, o += 4) out[t] = w00 * field[o]! + w01 * field[o + 1]! + w10 * field[o + 2]! + w11 * field[o + 3]!;
  return out;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const POINTS: [number, number][] = [
  [-93.6319, 42.0308],
  [0, 0],
  [7.31, 45.12],
  [179.995, -33.4],
  [180, 60.5],
  [-180, -60.5],
  [179.99, 10],
  [-0.005, 0.005],
  // on noise lattice lines (8, 2.5 and 4 degree spacings from -90/-180), so the cells straddle them
  [-100, 38],
  [20, 40],
  [12.5, -2.5],
  [100.003, 89.999],
  [-45, 90],
  [33.3, -90],
  [150.7, 66.6],
];

describe('SyntheticSource: daily extremes at a point (fused 2 x 2 pass)', () => {
  const src = new SyntheticSource({ now: () => NOW });
  const ranges: TimeRange[] = [
    { startMs: Date.UTC(2015, 0, 1), endMs: Date.UTC(2024, 11, 31) },
    { startMs: Date.UTC(2024, 1, 27), endMs: Date.UTC(2024, 2, 2) },
    { startMs: Date.UTC(2025, 5, 10), endMs: Date.UTC(2025, 6, 1) },
    { startMs: Date.UTC(2019, 11, 31), endMs: Date.UTC(2019, 11, 31) },
  ];

  // The fused pass accumulates noise in double, the block path in float32: the same values to
  // float32 rounding (the property: a point series is the bilinear mix of the grid values).
  it('gives the values of the general block path', () => {
    for (const [lon, lat] of POINTS) {
      for (const r of ranges) {
        const max = src.pointSeriesSync('air_temperature_daily_max', lon, lat, r).values;
        const min = new SyntheticSource({ now: () => NOW }).pointSeriesSync('air_temperature_daily_min', lon, lat, r).values;
        expect(maxAbsDiff(max, reference('air_temperature_daily_max', lon, lat, r))).toBeLessThan(1e-4);
        expect(maxAbsDiff(min, reference('air_temperature_daily_min', lon, lat, r))).toBeLessThan(1e-4);
      }
    }
  });

  // The anchors of the hourly curve (kernels/daily-anchors.wat `hourlyAnchors`) against the
  // block path's (temperature.ts): the same to float32 rounding of the noise, sunrise exactly.
  // 31 N is where the desert term of the dew anchors (clouds.ts `aridDepression`) changes fastest
  // with latitude, ~4 mK between the block's rows, so a row mixed up shows there.
  it('gives the block path\'s anchors of the hourly curve: midnights, dew anchors, sunrise', () => {
    for (const [lon, lat] of [...POINTS, [31.2, 31.05] as [number, number]]) {
      const { block } = gridQuad(lon, lat);
      const q = quadTemperatureAnchors(block, 19_300, 400, true), g = temperatureAnchors(block, 19_300, 400, true, true);
      for (const k of ['tmax', 'tmin', 'mid', 'tdew'] as const) expect(maxAbsDiff(q[k], g[k])).toBeLessThan(1e-5);
      expect(Array.from(q.sunrise)).toEqual(Array.from(g.sunrise));
    }
  });

  it('dailyExtremesSync returns both series, equal to two pointSeriesSync calls, with product labels', () => {
    const r = { startMs: Date.UTC(2025, 5, 1), endMs: Date.UTC(2025, 5, 20) };
    const both = src.dailyExtremesSync(7.31, 45.12, r);
    const other = new SyntheticSource({ now: () => NOW });
    const tmax = other.pointSeriesSync('air_temperature_daily_max', 7.31, 45.12, r);
    const tmin = new SyntheticSource({ now: () => NOW }).pointSeriesSync('air_temperature_daily_min', 7.31, 45.12, r);
    expect(both.tmax.variable).toBe('air_temperature_daily_max');
    expect(both.tmin.variable).toBe('air_temperature_daily_min');
    expect(Array.from(both.tmax.values)).toEqual(Array.from(tmax.values));
    expect(Array.from(both.tmin.values)).toEqual(Array.from(tmin.values));
    expect(both.tmax.startMs).toBe(tmax.startMs);
    expect(both.tmin.stepMs).toBe(D);
    for (let i = 0; i < r.endMs / D - r.startMs / D + 1; i++) {
      expect(both.tmax.productOf(i)).toBe(tmax.productOf(i));
      expect(both.tmin.productOf(i)).toBe(tmin.productOf(i));
    }
  });

  it('hands the other extreme over once, to the same request only, never a shared array', () => {
    const r = { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 11, 31) };
    const s = new SyntheticSource({ now: () => NOW });
    s.pointSeriesSync('air_temperature_daily_max', 10, 45, r);
    // a different point or range does not take it
    const elsewhere = s.pointSeriesSync('air_temperature_daily_min', 10.001, 45, r).values;
    expect(maxAbsDiff(elsewhere, reference('air_temperature_daily_min', 10.001, 45, r))).toBeLessThan(1e-4);
    s.pointSeriesSync('air_temperature_daily_max', 10, 45, r);
    const a = s.pointSeriesSync('air_temperature_daily_min', 10, 45, r).values;
    const b = s.pointSeriesSync('air_temperature_daily_min', 10, 45, r).values;
    expect(a).not.toBe(b);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(maxAbsDiff(a, reference('air_temperature_daily_min', 10, 45, r))).toBeLessThan(1e-4);
  });

  it('windowExtremesSync equals windowSync of each variable', () => {
    const r = { startMs: Date.UTC(2024, 3, 1), endMs: Date.UTC(2024, 9, 17) };
    for (const bbox of [[-93.64, 42.02, -93.62, 42.04], [179.9, -10.05, 180, -10], [10, 45, 10.13, 45.07]] as [number, number, number, number][]) {
      const both = src.windowExtremesSync(bbox, r);
      const tmax = src.windowSync('air_temperature_daily_max', bbox, r);
      const tmin = src.windowSync('air_temperature_daily_min', bbox, r);
      expect(Array.from(both.tmax.values)).toEqual(Array.from(tmax.values));
      expect(Array.from(both.tmin.values)).toEqual(Array.from(tmin.values));
      expect(Array.from(both.tmax.lats)).toEqual(Array.from(tmax.lats));
      expect(Array.from(both.tmin.lons)).toEqual(Array.from(tmin.lons));
      expect([both.tmax.nt, both.tmax.startMs, both.tmin.variable]).toEqual([tmax.nt, tmax.startMs, 'air_temperature_daily_min']);
      expect(both.tmin.productOf(both.tmin.nt - 1)).toBe(tmin.productOf(tmin.nt - 1));
    }
  });

  it('computeDailyExtremes equals computeField for each variable across chunks', () => {
    const block = makeBlock(Float64Array.of(45, 45.01, 45.02), Float64Array.of(10, 10.01));
    const [max, min] = computeDailyExtremes(block, 17000, 400);
    expect(Array.from(max)).toEqual(Array.from(computeField('air_temperature_daily_max', block, 17000, 400)));
    expect(Array.from(min)).toEqual(Array.from(computeField('air_temperature_daily_min', block, 17000, 400)));
  });
});
