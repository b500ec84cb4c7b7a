import { clearSkyRadiation, extraterrestrialRadiationHourly } from '@fieldcast/science';
import {
  ERROR_RULES,
  type ErrorRule,
  errorGrowth,
  errorNoise,
  errorNoiseGrid,
  forecastAt,
  forecastGrid,
  forecastValues,
} from '../src/catalog/forecast-error.js';

/* The forecast error model (docs/decisions/0141-forecast-error-model.md), as plain functions. */
const INIT = Date.parse('2026-05-01T06:00:00Z');
const HOUR = 3_600_000;
const leads = Array.from({ length: 385 }, (_, h) => h);
const key = { model: 'synthetic-global', initMs: INIT, stream: 'air_temperature' };

describe('forecast error', () => {
  it('grows as 1 - exp(-h / 120 h): 0 at lead 0, 0.181 at a day, 0.632 at five days, 0.959 at 16 days', () => {
    expect(errorGrowth(0)).toBe(0);
    expect(errorGrowth(24)).toBeCloseTo(1 - Math.exp(-0.2), 12);
    expect(errorGrowth(24)).toBeCloseTo(0.181, 3);
    expect(errorGrowth(120)).toBeCloseTo(0.632, 3);
    expect(errorGrowth(384)).toBeCloseTo(0.959, 3);
  });

  it('noise is deterministic, differs between runs and streams, and is near unit variance over many places', () => {
    expect(errorNoise(key, 42, -93, leads)).toEqual(errorNoise(key, 42, -93, leads));
    expect(errorNoise(key, 42, -93, leads)).not.toEqual(errorNoise({ ...key, initMs: INIT + 6 * HOUR }, 42, -93, leads));
    expect(errorNoise(key, 42, -93, leads)).not.toEqual(errorNoise({ ...key, stream: 'wind_speed' }, 42, -93, leads));
    // Lattice nodes (whole multiples of 5 degrees and 12 h) carry the unit-variance values themselves.
    let sum = 0;
    let sumSq = 0;
    let n = 0;
    for (let lat = -85; lat <= 85; lat += 5)
      for (let lon = -180; lon < 180; lon += 5) {
        const v = errorNoise(key, lat, lon, [0, 120, 240]);
        for (const x of v) {
          sum += x;
          sumSq += x * x;
          n++;
        }
      }
    const mean = sum / n;
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(sumSq / n - mean * mean).toBeGreaterThan(0.9);
    expect(sumSq / n - mean * mean).toBeLessThan(1.1);
  });

  it('is smooth: neighbouring hours and places differ far less than the noise itself', () => {
    const a = errorNoise(key, 42, -93, leads);
    let step = 0;
    for (let h = 1; h < a.length; h++) step = Math.max(step, Math.abs((a[h] as number) - (a[h - 1] as number)));
    expect(step).toBeLessThan(0.5);
    const b = errorNoise(key, 42.01, -93.01, leads);
    for (let h = 0; h < a.length; h++) expect(Math.abs((a[h] as number) - (b[h] as number))).toBeLessThan(0.05);
    // Longitude wraps: -180 and 180 are one place.
    expect(errorNoise(key, 10, -180, leads)).toEqual(errorNoise(key, 10, 180, leads));
  });

  it('applies each rule: additive, multiplicative, dewpoint below temperature, none', () => {
    const valid = leads.map((h) => INIT + h * HOUR);
    const run = { model: 'synthetic-global', initMs: INIT };
    const flat = (v: number) => new Float64Array(valid.length).fill(v);
    const t = forecastValues(ERROR_RULES.air_temperature, run, 42, -93, valid, { values: flat(10) });
    expect(t[0]).toBe(10);
    expect(Math.max(...t.map((v) => Math.abs(v - 10)))).toBeGreaterThan(0.5);
    const rain = forecastValues(ERROR_RULES.precipitation_rate, run, 42, -93, valid, { values: flat(0) });
    expect([...rain].every((v) => v === 0)).toBe(true);
    const wind = forecastValues(ERROR_RULES.wind_speed, run, 42, -93, valid, { values: flat(4) });
    expect([...wind].every((v) => v > 0)).toBe(true);
    const dew = forecastValues(ERROR_RULES.dew_point_temperature, run, 42, -93, valid, { values: flat(5), temperature: flat(10) });
    expect(dew[0]).toBeCloseTo(5, 12);
    dew.forEach((d, i) => expect(d).toBeLessThan((t[i] as number) + 1e-9));
    const clear = forecastValues(ERROR_RULES.precipitation_type, run, 42, -93, valid, { values: flat(2) });
    expect([...clear].every((v) => v === 2)).toBe(true);
    expect(() => forecastValues(ERROR_RULES.dew_point_temperature, run, 42, -93, valid, { values: flat(5) })).toThrow(/temperature/);
  });

  it('never forecasts more shortwave than clear sky at sea level, or the truth where that is more (ASCE-EWRI 2005 eqs. 47-48)', () => {
    const DAY = 24 * HOUR;
    /** 0.75 Ra of the hour centred on `ms` at 5 N 10 E, W m-2 (MJ m-2 h-1 x 1e6 / 3600) */
    const clearSky = (ms: number) => {
      const year = new Date(ms).getUTCFullYear();
      const doy = Math.floor((ms - Date.UTC(year, 0, 1)) / DAY) + 1;
      return (clearSkyRadiation(extraterrestrialRadiationHourly(5, 10, doy, (ms % DAY) / HOUR), 0) * 1e6) / 3600;
    };
    // Runs every 6 h from near the December solstice, each at 17 noons: a thin overcast of 700 W m-2.
    let most = 0;
    for (let k = 0; k < 40; k++) {
      const run = { model: 'synthetic-global', initMs: Date.parse('2026-12-06T12:00:00Z') + k * 6 * HOUR };
      const noons = Array.from({ length: 17 }, (_, d) => Date.parse('2026-12-06T12:00:00Z') + (d + Math.ceil(k / 4)) * DAY);
      const truth = { values: noons.map(() => 700) };
      const f = forecastValues(ERROR_RULES.surface_downwelling_shortwave_flux_in_air, run, 5, 10, noons, truth);
      const free = forecastValues({ kind: 'multiplicative', scale: 0.3, stream: 'shortwave' }, run, 5, 10, noons, truth);
      noons.forEach((ms, i) => {
        const cap = clearSky(ms);
        expect(cap).toBeGreaterThan(800);
        expect(f[i]).toBeCloseTo(Math.min(free[i]!, Math.max(700, cap)), 9);
        most = Math.max(most, free[i]! / cap);
      });
    }
    // without the ceiling the error carries noon's flux past clear sky, and past Ra itself
    expect(most).toBeGreaterThan(1 / 0.75);
    // a truth above the sea-level ceiling (clear sky high up) is a ceiling of its own: lead 0 is the truth
    const run = { model: 'synthetic-global', initMs: Date.parse('2026-12-06T12:00:00Z') };
    expect(forecastValues(ERROR_RULES.surface_downwelling_shortwave_flux_in_air, run, 5, 10, [run.initMs], { values: [2000] })[0]).toBe(
      2000,
    );
  });
});

/*
 * A product's forecast frame over a tile's places (docs/decisions/0496-product-runs-are-a-models-runs.md):
 * the grid form computes each point's value with the point form's operations, so a tile's pixel and
 * the model area's series at its centre are the same doubles before either rounds them.
 */
describe('forecast error over a grid of places', () => {
  const run = { model: 'synthetic-global', initMs: INIT };
  // A tile's rows and columns: across lattice rows and columns, the antimeridian and a pole.
  const lats = Float64Array.from([-90, -61.3, -5, 0.004, 12.5, 42.01, 84.9, 90]);
  const lons = Float64Array.from([-180, -179.99, -93.01, 0, 2.5, 119.999, 179.99, 180]);

  it('errorNoiseGrid is errorNoise at every point, to the bit, at any lead', () => {
    for (const lead of [0, 5.5, 30, 384]) {
      const grid = errorNoiseGrid({ ...key, initMs: INIT }, lats, lons, lead);
      lats.forEach((lat, r) => lons.forEach((lon, c) => expect(grid[r * lons.length + c]).toBe(errorNoise(key, lat, lon, [lead])[0])));
    }
  });

  it('forecastGrid is forecastValues at every point for every rule; missing and NaN stay', () => {
    const valid = INIT + 30 * HOUR;
    const n = lats.length * lons.length;
    const values = Float32Array.from({ length: n }, (_, i) => 2 + (i % 7));
    const temperature = Float32Array.from({ length: n }, (_, i) => 12 + (i % 5));
    for (const [variable, rule] of Object.entries(ERROR_RULES)) {
      const truth = rule.kind === 'depression' ? { values, temperature } : { values };
      const grid = forecastGrid(rule, run, valid, lats, lons, truth);
      lats.forEach((lat, r) =>
        lons.forEach((lon, c) => {
          const i = r * lons.length + c;
          const point = forecastValues(rule, run, lat, lon, [valid], {
            values: [values[i]!],
            ...(rule.kind === 'depression' ? { temperature: [temperature[i]!] } : {}),
          });
          expect([variable, grid[i]]).toEqual([variable, Math.fround(point[0]!)]);
        }),
      );
    }
    const missing = -3.4028234663852886e38;
    const holes = Float32Array.from(values);
    holes[3] = missing;
    holes[4] = Number.NaN;
    const t = forecastGrid(ERROR_RULES.air_temperature, run, valid, lats, lons, { values: holes }, missing);
    expect(t[3]).toBe(Math.fround(missing));
    expect(t[4]).toBeNaN();
    expect(t[5]).not.toBe(holes[5]);
    const wind = forecastGrid(ERROR_RULES.wind_speed, run, valid, lats, lons, { values: holes }, missing);
    expect(wind[3]).toBe(Math.fround(missing));
  });

  it('the clear-sky ceiling is the same doubles in the grid, the series and one point at a time: poles, antimeridian, day and hour boundaries', () => {
    // An error this large puts every value where the noise is positive at its ceiling (or the
    // truth, where the ceiling is below it): the values compared are the ceilings themselves.
    const capped: ErrorRule = { kind: 'multiplicative', scale: 1e4, stream: 'shortwave', atMost: 'clear-sky' };
    const init = Date.parse('2026-06-18T06:00:00Z');
    const summer = { model: 'synthetic-global', initMs: init };
    const polar = Float64Array.from([-90, -66.6, 0.004, 66.6, 89.99, 90]);
    const truth = 1e-6;
    const values = new Float32Array(polar.length * lons.length).fill(truth);
    // 00:00 UTC (a day boundary, local noon at the antimeridian), an hour, half past and 23:00
    const valid = ['2026-06-21T00:00:00Z', '2026-06-21T13:00:00Z', '2026-06-21T18:30:00Z', '2026-06-21T23:00:00Z'].map(Date.parse);
    const atCeiling = new Set<string>();
    for (const ms of valid) {
      const grid = forecastGrid(capped, summer, ms, polar, lons, { values });
      const one = forecastAt(summer, ms);
      polar.forEach((lat, r) =>
        lons.forEach((lon, c) => {
          const series = forecastValues(capped, summer, lat, lon, [ms - HOUR, ms, ms + HOUR], { values: [truth, truth, truth] })[1]!;
          expect([lat, lon, ms, grid[r * lons.length + c]]).toEqual([lat, lon, ms, Math.fround(series)]);
          expect([lat, lon, ms, one(capped, lat, lon, truth)]).toEqual([lat, lon, ms, series]);
          if (series > 1) atCeiling.add(lat === 90 || lat === -90 ? `pole ${lat}` : Math.abs(lon) === 180 ? 'antimeridian' : 'elsewhere');
        }),
      );
    }
    // the ceiling is what the values are at the places that matter here
    expect([...atCeiling].sort()).toEqual(['antimeridian', 'elsewhere', 'pole 90']);
  });

  it('is zero at lead 0 and differs between runs', () => {
    const values = new Float32Array(lats.length * lons.length).fill(10);
    expect(forecastGrid(ERROR_RULES.air_temperature, run, INIT, lats, lons, { values })).toEqual(values);
    const a = forecastGrid(ERROR_RULES.air_temperature, run, INIT + 48 * HOUR, lats, lons, { values });
    const b = forecastGrid(ERROR_RULES.air_temperature, { ...run, initMs: INIT - 6 * HOUR }, INIT + 48 * HOUR, lats, lons, { values });
    expect(a).not.toEqual(b);
  });
});
