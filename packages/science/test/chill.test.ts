import { accumulateChill, CHILL_MODELS, chillHour, DYNAMIC_MODEL, hourlyChill, hourlyChillPortions, utahChillUnit } from '../src/index.js';

describe('chilling hours (Bennett 1949; chillR Chilling_Hours: 0 <= T <= 7.2 °C)', () => {
  it.each([
    [-0.1, 0],
    [0, 1],
    [3.5, 1],
    [7.2, 1],
    [7.21, 0],
    [20, 0],
  ])('%p °C -> %p', (t, expected) => {
    expect(chillHour(t)).toBe(expected);
  });
});

describe('Utah chill units (Richardson et al. 1974, HortScience 9:331, table 1; chillR Utah_Model bands, (lower, upper])', () => {
  it.each([
    [-5, 0],
    [1.4, 0],
    [1.5, 0.5],
    [2.4, 0.5],
    [2.5, 1],
    [9.1, 1],
    [9.2, 0.5],
    [12.4, 0.5],
    [12.5, 0],
    [15.9, 0],
    [16, -0.5],
    [18, -0.5],
    [18.1, -1],
    [30, -1],
  ])('%p °C -> %p', (t, expected) => {
    expect(utahChillUnit(t)).toBe(expected);
  });

  it('sums the bands, negation included: 10 h at 6 °C and 4 h at 20 °C give 10 - 4 = 6', () => {
    expect(accumulateChill('utah', [...Array(10).fill(6), ...Array(4).fill(20)])).toBe(6);
    expect(accumulateChill('hours', [...Array(10).fill(6), ...Array(4).fill(20)])).toBe(10);
  });
});

/**
 * Independent check: chillR's second implementation of the Dynamic model, DynModel_driver
 * (C. Urbach, chillR R/temp_models.R), which its documentation states gives identical results
 * to Dynamic_Model for hourly data. It is written differently (the portion leaves the pool in
 * the same step, and the sigmoid is skipped above 17): x[i+1] = xs[i] - (xs[i] - x[i]) ek1[i];
 * if x[i+1] >= 1, y[i+1] = x[i+1] sr/(1+sr) at temp[i] and x[i+1] -= y[i+1].
 */
function dynModelDriver(temps: number[]): number[] {
  const { a0, a1, e0, e1, slope } = DYNAMIC_MODEL;
  const tf = 4 + 273;
  const k = temps.map((t) => t + 273);
  const xs = k.map((t) => (a0 / a1) * Math.exp(-(e0 - e1) / t));
  const ek1 = k.map((t) => Math.exp(-a1 * Math.exp(-e1 / t)));
  const x = [0];
  const y = [0];
  for (let i = 0; i < temps.length - 1; i++) {
    let next = xs[i]! - (xs[i]! - x[i]!) * ek1[i]!;
    let delta = 0;
    if (next >= 1) {
      const xtmp = (slope * tf * (k[i]! - tf)) / k[i]!;
      delta = next;
      if (xtmp < 17) delta *= Math.exp(xtmp) / (1 + Math.exp(xtmp));
      next -= delta;
    }
    x.push(next);
    y.push(delta);
  }
  return y;
}

/** A diurnal cycle as chillR's stack_hourly_temps would give, simplified to a sine between min and max. */
function diurnal(days: number, min: number, max: number): number[] {
  const out: number[] = [];
  for (let h = 0; h < days * 24; h++) out.push((min + max) / 2 - ((max - min) / 2) * Math.cos((2 * Math.PI * (h - 3)) / 24));
  return out;
}

describe('Dynamic model (Fishman et al. 1987; Erez et al. 1990; chillR Dynamic_Model)', () => {
  it('uses the published constants (chillR Dynamic_Model defaults; Fishman et al. 1987b)', () => {
    expect(DYNAMIC_MODEL).toMatchObject({ e0: 4153.5, e1: 12888.8, a0: 139500, a1: 2.567e18, slope: 1.6, tf: 277 });
  });

  it.each([
    ['a cool season, 2-10 °C', diurnal(60, 2, 10)],
    ['a mild season, 4-18 °C', diurnal(60, 4, 18)],
    ['warm afternoons, 3-17 °C', diurnal(60, 3, 17)],
    ['a season with frost, -6-8 °C', diurnal(60, -6, 8)],
  ])('hour by hour as chillR DynModel_driver, %s', (_name, temps) => {
    const ours = hourlyChillPortions(temps);
    const theirs = dynModelDriver(temps);
    for (let i = 0; i < temps.length; i++) expect(ours[i]).toBeCloseTo(theirs[i]!, 12);
    expect(theirs.reduce((a, b) => a + b, 0)).toBeGreaterThan(5); // the check sees portions, not only zeros
  });

  it('accumulates, never decreasing, and most at the optimum near 6 °C', () => {
    const hourly = hourlyChill('dynamic', diurnal(30, 2, 10));
    expect(Array.from(hourly).every((v) => v >= 0)).toBe(true);
    const at = (t: number) => accumulateChill('dynamic', Array(24 * 60).fill(t));
    expect(at(6)).toBeGreaterThan(at(2));
    expect(at(6)).toBeGreaterThan(at(10));
    expect(at(6)).toBeGreaterThan(10); // about a portion every few days at the optimum
  });

  it('gives no portions at a constant temperature whose equilibrium stays below 1 (above about 13 °C) ', () => {
    // xs = (A0/A1) exp((E1 - E0)/TK) < 1  <=>  TK > (E1 - E0) / ln(A1/A0) = 286.0 K (13.0 °C with chillR's +273)
    expect(accumulateChill('dynamic', Array(24 * 60).fill(14))).toBe(0);
    expect(accumulateChill('dynamic', Array(24 * 60).fill(25))).toBe(0);
  });

  it('counts nothing in the first hour (chillR: x starts at 0)', () => {
    expect(hourlyChillPortions([6])[0]).toBe(0);
    expect(accumulateChill('dynamic', [])).toBe(0);
  });
});

describe('every model', () => {
  it('keeps an unknown hour unknown and rejects an unknown model', () => {
    for (const model of CHILL_MODELS) expect(accumulateChill(model, [5, Number.NaN, 5])).toBeNaN();
    expect(accumulateChill('dynamic', [5, 5, Number.NaN])).toBeNaN();
    expect(() => accumulateChill('chill-units' as 'utah', [5])).toThrow(/unknown chill model/);
    expect(() => hourlyChill('hours', [1, 2], new Float64Array(1))).toThrow(RangeError);
  });

  it("writes each hour's chill into `hourly` on the way to the total: hourlyChill's, also where an unknown hour leaves the total unknown", () => {
    const days = Array.from({ length: 24 * 20 }, (_, h) => 6 + 7 * Math.sin((2 * Math.PI * h) / 24));
    for (const model of CHILL_MODELS) {
      for (const temps of [days, [...days.slice(0, -1), Number.NaN]]) {
        const hourly = new Float64Array(temps.length).fill(-7);
        const total = accumulateChill(model, temps, hourly);
        expect(hourly).toEqual(hourlyChill(model, temps));
        // the total is the running sum's last value, hour by hour in order
        expect(total).toBe(temps.some(Number.isNaN) ? Number.NaN : hourly.reduce((sum, v) => sum + v, 0));
      }
    }
  });
});
