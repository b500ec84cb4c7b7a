import { GridRequestError, type TimeRange } from '../src/grid/grid-source.js';
import { LAPSE_RATE_K_PER_M, PRECIPITATION_TYPE, SyntheticSource } from '../src/synthetic/index.js';

const H = 3_600_000;
const D = 86_400_000;
const NOW = Date.UTC(2025, 5, 15, 10, 20);
const src = new SyntheticSource({ now: () => NOW });

function year(y: number): TimeRange {
  return { startMs: Date.UTC(y, 0, 1), endMs: Date.UTC(y + 1, 0, 1) - H };
}
function month(y: number, m: number): TimeRange {
  return { startMs: Date.UTC(y, m, 1), endMs: Date.UTC(y, m + 1, 1) - H };
}
function mean(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] as number;
  return s / a.length;
}
function corr(a: number[], b: number[]): number {
  const ma = mean(a),
    mb = mean(b);
  let sab = 0,
    saa = 0,
    sbb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = (a[i] as number) - ma,
      y = (b[i] as number) - mb;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return sab / Math.sqrt(saa * sbb);
}
function max(a: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) if ((a[i] as number) > m) m = a[i] as number;
  return m;
}
function min(a: ArrayLike<number>): number {
  let m = Infinity;
  for (let i = 0; i < a.length; i++) if ((a[i] as number) < m) m = a[i] as number;
  return m;
}
function diffs(a: Float32Array): number[] {
  const out: number[] = [];
  for (let i = 1; i < a.length; i++) out.push((a[i] as number) - (a[i - 1] as number));
  return out;
}
const LONS = [-120, -60, 0, 60, 120];

describe('SyntheticSource: climate plausibility', () => {
  it('is ~25-30 degC on average at the equator', () => {
    const means = LONS.map((lon) => mean(src.pointSeriesSync('air_temperature', lon, 0, year(2023)).values));
    const m = mean(means);
    expect(m).toBeGreaterThan(22);
    expect(m).toBeLessThan(31);
  });

  it('has the seasons right in each hemisphere, with a larger swing at higher latitude', () => {
    const swing = (lat: number): number => {
      const jan = mean(LONS.map((lon) => mean(src.pointSeriesSync('air_temperature', lon, lat, month(2023, 0)).values)));
      const jul = mean(LONS.map((lon) => mean(src.pointSeriesSync('air_temperature', lon, lat, month(2023, 6)).values)));
      return jul - jan;
    };
    const n45 = swing(45),
      s45 = swing(-45),
      n70 = swing(70),
      eq = swing(0);
    expect(n45).toBeGreaterThan(10);
    // 45 S is nearly all ocean: a swing of a few K, January the warmer month.
    expect(s45).toBeLessThan(-2);
    expect(n70).toBeGreaterThan(n45);
    expect(Math.abs(eq)).toBeLessThan(4);
  });

  it('is cold at the poles and colder poleward', () => {
    for (const lat of [85, -85]) {
      const m = mean(LONS.map((lon) => mean(src.pointSeriesSync('air_temperature_daily_max', lon, lat, year(2023)).values)));
      expect(m).toBeLessThan(-5);
    }
    const at = (lat: number): number =>
      mean(LONS.map((lon) => mean(src.pointSeriesSync('air_temperature_daily_min', lon, lat, year(2022)).values)));
    expect(at(0)).toBeGreaterThan(at(30));
    expect(at(30)).toBeGreaterThan(at(60));
    expect(at(60)).toBeGreaterThan(at(85));
  });

  it('has its diurnal minimum near sunrise and maximum mid-afternoon, local solar time', () => {
    for (const lon of [-90, 0, 100]) {
      const s = src.pointSeriesSync('air_temperature', lon, 40, month(2023, 3));
      const byLocalHour = new Array<number>(24).fill(0);
      for (let i = 0; i < s.values.length; i++) {
        const utc = ((s.startMs + i * H) / H) % 24;
        const local = Math.floor((((utc + lon / 15) % 24) + 24) % 24);
        byLocalHour[local] = (byLocalHour[local] as number) + (s.values[i] as number);
      }
      const hMax = byLocalHour.indexOf(Math.max(...byLocalHour));
      const hMin = byLocalHour.indexOf(Math.min(...byLocalHour));
      expect(hMax).toBeGreaterThanOrEqual(13);
      expect(hMax).toBeLessThanOrEqual(16);
      expect(hMin).toBeGreaterThanOrEqual(4);
      expect(hMin).toBeLessThanOrEqual(7);
    }
  });
});

describe('SyntheticSource: physical consistency', () => {
  const boxes: [number, number, number, number][] = [
    [10, 45, 10.2, 45.2],
    [-100, 35, -99.8, 35.2],
    [30, -5, 30.2, -4.8],
    [100, 65, 100.2, 65.2],
  ];

  it('never has dewpoint above temperature', () => {
    for (const b of boxes) {
      for (const r of [month(2023, 0), month(2023, 6)]) {
        const t = src.windowSync('air_temperature', b, r).values;
        const td = src.windowSync('dew_point_temperature', b, r).values;
        let bad = 0;
        for (let i = 0; i < t.length; i++) if ((td[i] as number) > (t[i] as number)) bad++;
        expect(bad).toBe(0);
        // and the dewpoint is not simply equal to T: air is not always saturated
        expect(mean(t) - mean(td)).toBeGreaterThan(0.5);
      }
    }
  });

  it('has shortwave between 0 and clear sky, 0 at night, clear sky from solar geometry', () => {
    for (const b of boxes) {
      const r = month(2023, 5);
      const rs = src.windowSync('surface_downwelling_shortwave_flux_in_air', b, r).values;
      const rso = src.windowSync('surface_downwelling_shortwave_flux_in_air_assuming_clear_sky', b, r).values;
      let night = 0,
        day = 0,
        cloudy = 0,
        bad = 0;
      for (let i = 0; i < rs.length; i++) {
        const a = rs[i] as number,
          c = rso[i] as number;
        if (a < 0 || a > c + 1e-3) bad++;
        if (c === 0) {
          if (a !== 0) bad++;
          night++;
        } else day++;
        if (c > 0 && a < 0.9 * c) cloudy++;
      }
      expect(bad).toBe(0);
      expect(night).toBeGreaterThan(0);
      expect(day).toBeGreaterThan(0);
      expect(cloudy).toBeGreaterThan(0);
      expect(max(rso)).toBeLessThan(1100);
    }
    // local midnight at 45N, lon 0 in June: dark; local noon: over 700 W m-2 clear sky
    const mid = src.sliceSync('surface_downwelling_shortwave_flux_in_air_assuming_clear_sky', [0, 45, 0, 45], Date.UTC(2023, 5, 21, 0));
    const noon = src.sliceSync('surface_downwelling_shortwave_flux_in_air_assuming_clear_sky', [0, 45, 0, 45], Date.UTC(2023, 5, 21, 12));
    expect(mid.values[0]).toBe(0);
    expect(noon.values[0]).toBeGreaterThan(700);
  });

  it('uses a lapse rate over procedural terrain that varies within a field', () => {
    // ~5,000 km2 field: 0.9 x 0.65 degrees at 45N
    const b: [number, number, number, number] = [10, 45, 10.9, 45.65];
    const z = src.sliceSync('surface_altitude', b, 0).values;
    expect(max(z) - min(z)).toBeGreaterThan(30);
    // noon of a week: the day's cloud, which sets the diurnal range, varies across the field too
    const days = Array.from({ length: 7 }, (_, d) => src.sliceSync('air_temperature', b, Date.UTC(2023, 6, 1 + d, 12)).values);
    const t = days[0]!.map((_, i) => days.reduce((s, v) => s + v[i]!, 0) / days.length);
    expect(max(t) - min(t)).toBeGreaterThan(0.2);
    // regression of T on z across the field recovers the lapse rate (anomalies are smooth at this scale)
    const mz = mean(z),
      mt = mean(t);
    let szt = 0,
      szz = 0;
    for (let i = 0; i < z.length; i++) {
      szt += ((z[i] as number) - mz) * ((t[i] as number) - mt);
      szz += ((z[i] as number) - mz) ** 2;
    }
    expect(szt / szz).toBeGreaterThan(-LAPSE_RATE_K_PER_M * 1.25);
    expect(szt / szz).toBeLessThan(-LAPSE_RATE_K_PER_M * 0.75);
  });

  it('has surface pressure in kPa that falls with altitude, and positive 2 m wind', () => {
    const b: [number, number, number, number] = [10, 45, 10.9, 45.65];
    const z = src.sliceSync('surface_altitude', b, 0).values;
    const p = src.sliceSync('surface_air_pressure', b, Date.UTC(2023, 6, 1, 12)).values;
    let lo = 0,
      hi = 0;
    for (let i = 0; i < z.length; i++) if ((z[i] as number) < (z[lo] as number)) lo = i;
    for (let i = 0; i < z.length; i++) if ((z[i] as number) > (z[hi] as number)) hi = i;
    expect(p[hi] as number).toBeLessThan(p[lo] as number);
    expect(min(p)).toBeGreaterThan(60);
    expect(max(p)).toBeLessThan(106);
    const w = src.windowSync('wind_speed', b, { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 0, 3) }).values;
    expect(min(w)).toBeGreaterThanOrEqual(0.5);
    expect(max(w)).toBeLessThan(30);
  });

  it('has precipitation type consistent with rate and temperature', () => {
    const seen = new Set<number>();
    for (const [b, r] of [
      [[-75, 44, -74.6, 44.4], month(2023, 0)],
      [[30, 55, 30.4, 55.4], month(2023, 1)],
      [[-100, 35, -99.6, 35.4], month(2023, 6)],
    ] as const) {
      const rate = src.windowSync('precipitation_rate', [...b], r).values;
      const type = src.windowSync('precipitation_type', [...b], r).values;
      const t = src.windowSync('air_temperature', [...b], r).values;
      const bad: string[] = [];
      for (let i = 0; i < rate.length; i++) {
        const k = type[i] as number,
          tc = t[i] as number,
          q = rate[i] as number;
        seen.add(k);
        if (q < 0) bad.push(`rate ${q}`);
        if ((k === PRECIPITATION_TYPE.none) !== (q === 0)) bad.push(`type ${k} with rate ${q}`);
        if (k === PRECIPITATION_TYPE.rain && !(tc > 0)) bad.push(`rain at ${tc}`);
        if (k === PRECIPITATION_TYPE.snow && !(tc <= 2)) bad.push(`snow at ${tc}`);
        if ((k === PRECIPITATION_TYPE.freezingRain || k === PRECIPITATION_TYPE.icePellets) && !(tc <= 0)) bad.push(`type ${k} at ${tc}`);
      }
      expect(bad.slice(0, 5)).toEqual([]);
    }
    expect(seen.has(PRECIPITATION_TYPE.none)).toBe(true);
    expect(seen.has(PRECIPITATION_TYPE.rain)).toBe(true);
    expect(seen.has(PRECIPITATION_TYPE.snow)).toBe(true);
  });
});

describe('SyntheticSource: daily extremes agree with the hourly curve', () => {
  it('daily max/min equal the extremes of the local solar day hourly values', () => {
    for (const lon of [0, 7.31, 90, -75.5, 179.99, -180]) {
      for (const lat of [45.12, -33.4, 0]) {
        const d0 = Date.UTC(2023, 3, 10);
        const days = 5;
        const daily = { startMs: d0, endMs: d0 + (days - 1) * D };
        const tmax = src.pointSeriesSync('air_temperature_daily_max', lon, lat, daily).values;
        const tmin = src.pointSeriesSync('air_temperature_daily_min', lon, lat, daily).values;
        const hourly = src.pointSeriesSync('air_temperature', lon, lat, { startMs: d0 - D, endMs: d0 + (days + 1) * D });
        for (let k = 0; k < days; k++) {
          const day = d0 / D + k;
          let hi = -Infinity,
            lo = Infinity,
            n = 0;
          for (let i = 0; i < hourly.values.length; i++) {
            const t = (hourly.startMs + i * H) / H;
            if (Math.floor((t + lon / 15) / 24) !== day) continue;
            n++;
            hi = Math.max(hi, hourly.values[i] as number);
            lo = Math.min(lo, hourly.values[i] as number);
          }
          expect(n).toBe(24);
          expect(Math.abs((tmax[k] as number) - hi)).toBeLessThan(1e-4);
          expect(Math.abs((tmin[k] as number) - lo)).toBeLessThan(1e-4);
        }
      }
    }
  });

  it('daily windows equal the extremes of the hourly window at every grid point, exactly', () => {
    // Arctic spring and a mid-latitude autumn: fronts, polar day and short days included.
    for (const [b, d0, days] of [
      [[100, 65, 100.05, 65.03], Date.UTC(2023, 4, 20), 40],
      [[-75.5, 44, -75.45, 44.03], Date.UTC(2023, 9, 1), 40],
    ] as const) {
      const daily = { startMs: d0, endMs: d0 + (days - 1) * D };
      const tmax = src.windowSync('air_temperature_daily_max', [...b], daily);
      const tmin = src.windowSync('air_temperature_daily_min', [...b], daily);
      const hourly = src.windowSync('air_temperature', [...b], { startMs: d0 - D, endMs: d0 + (days + 1) * D });
      const nCells = tmax.lats.length * tmax.lons.length;
      let mismatches = 0;
      for (let c = 0; c < tmax.lons.length; c++) {
        const off = (tmax.lons[c] as number) / 15;
        for (let r = 0; r < tmax.lats.length; r++) {
          const cell = r * tmax.lons.length + c;
          for (let k = 0; k < days; k++) {
            const day = d0 / D + k;
            let hi = -Infinity,
              lo = Infinity;
            for (let i = 0; i < hourly.nt; i++) {
              const t = (hourly.startMs + i * H) / H;
              if (Math.floor((t + off) / 24) !== day) continue;
              hi = Math.max(hi, hourly.values[i * nCells + cell] as number);
              lo = Math.min(lo, hourly.values[i * nCells + cell] as number);
            }
            if (hi !== tmax.values[k * nCells + cell] || lo !== tmin.values[k * nCells + cell]) mismatches++;
          }
        }
      }
      expect(mismatches).toBe(0);
    }
  });

  it('stamps daily values at 00:00Z of the date', () => {
    const s = src.pointSeriesSync('air_temperature_daily_max', 10, 45, {
      startMs: Date.UTC(2023, 0, 1, 5),
      endMs: Date.UTC(2023, 0, 4, 23),
    });
    expect(s.startMs).toBe(Date.UTC(2023, 0, 2));
    expect(s.stepMs).toBe(D);
    expect(s.values.length).toBe(3);
  });
});

describe('SyntheticSource: determinism and spatial structure', () => {
  it('gives the same values from two instances and from different request shapes', () => {
    const other = new SyntheticSource({ now: () => NOW });
    const b: [number, number, number, number] = [5, 50, 5.05, 50.03];
    const r = { startMs: Date.UTC(2020, 1, 28), endMs: Date.UTC(2020, 2, 2) };
    for (const v of [
      'air_temperature',
      'precipitation_rate',
      'surface_downwelling_shortwave_flux_in_air',
      'air_temperature_daily_max',
    ] as const) {
      const a = src.windowSync(v, b, r);
      const c = other.windowSync(v, b, r);
      expect(Array.from(c.values)).toEqual(Array.from(a.values));
      // the corner cell alone, and a point series at that exact grid point, agree with the window
      const corner = other.windowSync(v, [5, 50, 5, 50], r);
      const p = other.pointSeriesSync(v, 5, 50, r);
      const nCells = a.lats.length * a.lons.length;
      for (let t = 0; t < a.nt; t++) {
        expect(corner.values[t]).toBe(a.values[t * nCells]);
        expect(p.values[t]).toBeCloseTo(a.values[t * nCells] as number, 4);
      }
    }
  });

  it('is smooth between neighbours 1 km apart and independent 2,000 km apart', () => {
    const r = { startMs: Date.UTC(2021, 0, 1), endMs: Date.UTC(2022, 11, 31) };
    const a = src.pointSeriesSync('air_temperature_daily_max', 20, 40, r).values;
    const near = src.pointSeriesSync('air_temperature_daily_max', 20.01, 40, r).values;
    const far = src.pointSeriesSync('air_temperature_daily_max', 20, 22, r).values;
    const da = diffs(a);
    expect(corr(da, diffs(near))).toBeGreaterThan(0.97);
    expect(Math.abs(corr(da, diffs(far)))).toBeLessThan(0.2);
    // day-to-day changes are weather, not noise: consecutive-day anomalies are correlated
    let big = 0;
    for (const d of da) if (Math.abs(d) > 8) big++;
    expect(big / da.length).toBeLessThan(0.05);
  });

  it('interpolates point series bilinearly between grid points', () => {
    const r = { startMs: Date.UTC(2023, 6, 1), endMs: Date.UTC(2023, 6, 2) };
    const w = src.windowSync('air_temperature', [12.3, 41.2, 12.31, 41.21], r);
    expect(w.lats.length).toBe(2);
    expect(w.lons.length).toBe(2);
    const fx = 0.25,
      fy = 0.6;
    const p = src.pointSeriesSync('air_temperature', 12.3 + 0.01 * fx, 41.2 + 0.01 * fy, r);
    for (let t = 0; t < w.nt; t++) {
      const [v00, v01, v10, v11] = Array.from(w.values.subarray(4 * t, 4 * t + 4));
      const expected = (1 - fy) * ((1 - fx) * v00! + fx * v01!) + fy * ((1 - fx) * v10! + fx * v11!);
      expect(p.values[t]).toBeCloseTo(expected, 4);
    }
  });
});

describe('SyntheticSource: windows, slices and coverage', () => {
  it('returns the cells whose centres lie in the bbox, edges included, [t][lat][lon]', () => {
    const r = { startMs: Date.UTC(2023, 0, 1, 0, 30), endMs: Date.UTC(2023, 0, 1, 5) };
    const w = src.windowSync('air_temperature', [10, 45, 10.05, 45.02], r);
    expect(Array.from(w.lats)).toEqual([45, 45.01, 45.02]);
    expect(Array.from(w.lons)).toEqual([10, 10.01, 10.02, 10.03, 10.04, 10.05]);
    expect(w.startMs).toBe(Date.UTC(2023, 0, 1, 1));
    expect(w.nt).toBe(5);
    expect(w.values.length).toBe(5 * 3 * 6);
    expect(w.units).toBe('degC');
    expect(w.dLat).toBe(0.01);
    const inner = src.windowSync('air_temperature', [10.001, 45.001, 10.019, 45.019], r);
    expect(Array.from(inner.lats)).toEqual([45.01]);
    expect(Array.from(inner.lons)).toEqual([10.01]);
    // row 1, column 1 of the first window
    expect(inner.values[0]).toBe(w.values[1 * 6 + 1]);
  });

  it('slices the step at or before the time', () => {
    const s = src.sliceSync('air_temperature', [10, 45, 10.02, 45.02], Date.UTC(2023, 0, 1, 10, 59));
    expect(s.nt).toBe(1);
    expect(s.startMs).toBe(Date.UTC(2023, 0, 1, 10));
    const d = src.sliceSync('air_temperature_daily_min', [10, 45, 10.02, 45.02], Date.UTC(2023, 0, 1, 10, 59));
    expect(d.startMs).toBe(Date.UTC(2023, 0, 1));
  });

  it('covers 2015-01-01 to 16 days after the current hour and refuses anything else', () => {
    const cov = src.coverage();
    expect(cov.startMs).toBe(Date.UTC(2015, 0, 1));
    expect(cov.endMs).toBe(Date.UTC(2025, 5, 15, 10) + 16 * D);
    const expectCode = (f: () => unknown, code: string): void => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(GridRequestError);
        expect((e as GridRequestError).code).toBe(code);
        return;
      }
      throw new Error('expected a GridRequestError');
    };
    expectCode(
      () => src.pointSeriesSync('air_temperature', 0, 0, { startMs: Date.UTC(2014, 11, 31), endMs: Date.UTC(2015, 0, 2) }),
      'out_of_coverage',
    );
    expectCode(() => src.pointSeriesSync('air_temperature', 0, 0, { startMs: NOW, endMs: cov.endMs + H }), 'out_of_coverage');
    expectCode(() => src.sliceSync('air_temperature', [0, 0, 1, 1], cov.endMs + H), 'out_of_coverage');
    expectCode(() => src.windowSync('air_temperature', [1, 0, 0, 1], month(2023, 0)), 'invalid_bbox');
    expectCode(() => src.pointSeriesSync('air_temperature', 0, 91, month(2023, 0)), 'invalid_location');
    expectCode(() => src.pointSeriesSync('nope' as never, 0, 0, month(2023, 0)), 'unknown_variable');
    expectCode(
      () => new SyntheticSource({ now: () => NOW, maxValues: 1000 }).windowSync('air_temperature', [0, 0, 1, 1], month(2023, 0)),
      'too_large',
    );
    // the async contract rejects the same way
    return expect(src.pointSeries('air_temperature', 0, 0, { startMs: 0, endMs: 1 })).rejects.toBeInstanceOf(GridRequestError);
  });

  it('names the analysis product up to the current hour and the forecast product after it', () => {
    const s = src.pointSeriesSync('air_temperature', 0, 0, { startMs: Date.UTC(2025, 5, 15, 8), endMs: Date.UTC(2025, 5, 15, 12) });
    expect([0, 1, 2, 3, 4].map((i) => s.productOf(i))).toEqual([
      'synthetic-analysis',
      'synthetic-analysis',
      'synthetic-analysis',
      'synthetic-forecast',
      'synthetic-forecast',
    ]);
    const d = src.pointSeriesSync('air_temperature_daily_max', 0, 0, { startMs: Date.UTC(2025, 5, 13), endMs: Date.UTC(2025, 5, 16) });
    expect([0, 1, 2, 3].map((i) => d.productOf(i))).toEqual([
      'synthetic-analysis',
      'synthetic-analysis',
      'synthetic-forecast',
      'synthetic-forecast',
    ]);
    expect(src.id).toBe('synthetic');
    expect(src.label).toBe('synthetic');
  });

  it('lists its variables with CF standard names', () => {
    const vars = src.variables();
    expect(vars.find((v) => v.id === 'air_temperature_daily_max')).toMatchObject({
      standardName: 'air_temperature',
      cellMethods: 'time: maximum',
      stepMs: D,
    });
    expect(vars.find((v) => v.id === 'surface_altitude')?.stepMs).toBe(0);
  });
});

describe('SyntheticSource: severe weather', () => {
  const plains: [number, number, number, number] = [-102, 33, -94, 41];
  const july = { startMs: Date.UTC(2023, 6, 1), endMs: Date.UTC(2023, 6, 31, 23) };
  const january = { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 0, 31, 23) };

  it('is deterministic, sparse and concentrated in the warm season', () => {
    const a = src.severeEvents('lightning', plains, july);
    const b = new SyntheticSource({ now: () => NOW }).severeEvents('lightning', plains, july);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(a.length).toBeGreaterThan(0);
    expect(src.severeEvents('lightning', plains, january).length).toBeLessThan(a.length / 5);
    const outside = a.filter(
      (e) =>
        e.timeMs < july.startMs ||
        e.timeMs > july.endMs ||
        e.lon < plains[0] ||
        e.lon > plains[2] ||
        e.lat < plains[1] ||
        e.lat > plains[3],
    );
    expect(outside).toEqual([]);
    expect(new Set(a.map((e) => e.strokeType))).toEqual(new Set(['cloud', 'ground']));
    expect(new Set(a.map((e) => e.id)).size).toBe(a.length);
    // clustered: at one place (a 1 degree box) strikes fall on a minority of days
    const local = src.severeEvents('lightning', [-98, 37, -97, 38], july);
    const days = new Set(local.map((e) => Math.floor(e.timeMs / D)));
    expect(days.size).toBeLessThan(16);
  });

  it('gives hail sizes, tornado tracks and reports consistent with the severe criteria', () => {
    const season = { startMs: Date.UTC(2023, 4, 1), endMs: Date.UTC(2023, 7, 31) };
    const hail = src.severeEvents('hail', plains, season);
    const gusts = src.severeEvents('gust', plains, season);
    const tornadoes = src.severeEvents('tornado', plains, season);
    const reports = src.severeEvents('storm_report', plains, season);
    expect(hail.length).toBeGreaterThan(0);
    for (const h of hail) expect(h.magnitude).toBeGreaterThan(0);
    expect(gusts.length).toBeGreaterThan(0);
    expect(tornadoes.length).toBeGreaterThan(0);
    for (const t of tornadoes) {
      expect(t.track.length).toBeGreaterThanOrEqual(2);
      // the track starts at the touchdown, the event's position (docs/decisions/0170-archive-requests.md)
      expect(t.track[0]).toEqual([t.lon, t.lat]);
      expect(t.magnitude).toBeGreaterThanOrEqual(0);
      expect(t.magnitude).toBeLessThanOrEqual(5);
      expect(t.endTimeMs).toBeGreaterThanOrEqual(t.timeMs);
    }
    const severeHail = hail.filter((h) => h.magnitude >= 25.4).length;
    expect(reports.filter((r) => r.reportType === 'hail').length).toBe(severeHail);
    for (const r of reports) if (r.reportType === 'wind') expect(r.magnitude).toBeGreaterThanOrEqual(25.7);
  });
});
