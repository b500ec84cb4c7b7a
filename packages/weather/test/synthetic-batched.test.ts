import { CompositeSource } from '../src/sources/composite-source.js';
import { ET_INPUT_VARIABLES, type EtInputs, type GridWindow, type PointSeries, type TimeRange } from '../src/grid/grid-source.js';
import { SyntheticSource } from '../src/synthetic/index.js';

/** The batched reads of GridSource on the synthetic world: the single reads' values, from one pass. */
const NOW = Date.UTC(2024, 6, 1, 12);
const src = new SyntheticSource({ now: () => NOW });
const DAYS: TimeRange = { startMs: Date.UTC(2024, 5, 20), endMs: Date.UTC(2024, 6, 10) };
const HOURS: TimeRange = { startMs: Date.UTC(2024, 5, 28, 5), endMs: Date.UTC(2024, 6, 3, 17) };
const ET_KEYS = Object.keys(ET_INPUT_VARIABLES) as (keyof EtInputs<unknown>)[];

function expectSameSeries(a: PointSeries, b: PointSeries): void {
  expect(a.variable).toBe(b.variable);
  expect(a.units).toBe(b.units);
  expect(a.startMs).toBe(b.startMs);
  expect(a.stepMs).toBe(b.stepMs);
  expect(Array.from(a.values)).toEqual(Array.from(b.values));
  expect(Array.from(a.values, (_, i) => a.productOf(i))).toEqual(Array.from(b.values, (_, i) => b.productOf(i)));
}

function expectSameWindow(a: GridWindow, b: GridWindow): void {
  expect(a.variable).toBe(b.variable);
  expect(Array.from(a.lats)).toEqual(Array.from(b.lats));
  expect(Array.from(a.lons)).toEqual(Array.from(b.lons));
  expect([a.startMs, a.stepMs, a.nt]).toEqual([b.startMs, b.stepMs, b.nt]);
  expect(Array.from(a.values)).toEqual(Array.from(b.values));
}

describe('SyntheticSource: batched reads', () => {
  it('dailyExtremesAt gives the two pointSeries reads, with product labels (forecast days included)', async () => {
    for (const [lon, lat] of [
      [7.31, 45.12],
      [-93.6319, 42.0308],
      [179.995, -33.4],
      [0, 89.999],
    ]) {
      const both = await src.dailyExtremesAt(lon!, lat!, DAYS);
      expectSameSeries(both.tmax, await src.pointSeries('air_temperature_daily_max', lon!, lat!, DAYS));
      expectSameSeries(both.tmin, await src.pointSeries('air_temperature_daily_min', lon!, lat!, DAYS));
    }
  });

  it('dailyExtremesIn gives the two window reads', async () => {
    const bbox: [number, number, number, number] = [-93.65, 42.01, -93.6, 42.05];
    const both = await src.dailyExtremesIn(bbox, DAYS);
    expectSameWindow(both.tmax, await src.window('air_temperature_daily_max', bbox, DAYS));
    expectSameWindow(both.tmin, await src.window('air_temperature_daily_min', bbox, DAYS));
  });

  it('etInputsAt and etInputsIn give the five single reads', async () => {
    const at = await src.etInputsAt(10.123, 45.456, HOURS);
    const bbox: [number, number, number, number] = [10.1, 45.44, 10.13, 45.46];
    const inside = await src.etInputsIn(bbox, HOURS);
    for (const k of ET_KEYS) {
      expectSameSeries(at[k], await src.pointSeries(ET_INPUT_VARIABLES[k], 10.123, 45.456, HOURS));
      expectSameWindow(inside[k], await src.window(ET_INPUT_VARIABLES[k], bbox, HOURS));
    }
    // dewpoint never above the air temperature of the same hour
    at.dewpoint.values.forEach((td, i) => expect(td).toBeLessThanOrEqual(at.airTemperature.values[i]!));
  });

  it('gives a request the same values whatever came before, in arrays of its own', async () => {
    const first = await src.dailyExtremesAt(7.31, 45.12, DAYS);
    const copy = Array.from(first.tmin.values);
    first.tmin.values.fill(Number.NaN);
    await src.dailyExtremesAt(7.32, 45.12, DAYS);
    await src.pointSeries('air_temperature_daily_max', 7.31, 45.12, DAYS);
    const again = await src.dailyExtremesAt(7.31, 45.12, DAYS);
    expect(Array.from(again.tmin.values)).toEqual(copy);
    const fresh = await new SyntheticSource({ now: () => NOW }).pointSeries('air_temperature_daily_min', 7.31, 45.12, DAYS);
    expect(Array.from(fresh.values)).toEqual(copy);
  });

  it('refuses what the single reads refuse', async () => {
    await expect(src.dailyExtremesAt(0, 91, DAYS)).rejects.toMatchObject({ code: 'invalid_location' });
    await expect(src.etInputsIn([1, 0, 0, 1], HOURS)).rejects.toMatchObject({ code: 'invalid_bbox' });
    await expect(src.etInputsAt(0, 0, { startMs: Date.UTC(2014, 0, 1), endMs: Date.UTC(2015, 0, 2) })).rejects.toMatchObject({
      code: 'out_of_coverage',
    });
    await expect(new SyntheticSource({ now: () => NOW, maxValues: 1000 }).dailyExtremesIn([0, 0, 1, 1], DAYS)).rejects.toMatchObject({
      code: 'too_large',
    });
  });

  it('a CompositeSource passes a batched read whole to the source every variable routes to', async () => {
    const composite = new CompositeSource([src]);
    const both = await composite.dailyExtremesAt(7.31, 45.12, DAYS);
    expectSameSeries(both.tmax, await src.pointSeries('air_temperature_daily_max', 7.31, 45.12, DAYS));
    const et = await composite.etInputsIn([10.1, 45.44, 10.13, 45.46], HOURS);
    expectSameWindow(et.windSpeed, await src.window('wind_speed', [10.1, 45.44, 10.13, 45.46], HOURS));
  });
});

describe('SyntheticSource: point reads', () => {
  it("read the grid point's own values at a grid node", () => {
    const r = { startMs: Date.UTC(2023, 6, 1), endMs: Date.UTC(2023, 6, 8) };
    for (const variable of [
      'air_temperature',
      'dew_point_temperature',
      'surface_downwelling_shortwave_flux_in_air',
      'wind_speed',
      'surface_air_pressure',
    ] as const) {
      const win = src.windowSync(variable, [7.31, 45.12, 7.31, 45.12], r).values;
      const p = src.pointSeriesSync(variable, 7.31, 45.12, r).values;
      for (let t = 0; t < win.length; t++) expect(Math.abs(p[t]! - win[t]!)).toBeLessThanOrEqual(4 * 2 ** -23 * Math.abs(win[t]!) + 1e-4);
    }
  });

  it('keeps wind above the 0.5 m/s floor in the calmest belt (subtropical highs, low ground, calm season)', () => {
    const w = src.windowSync('wind_speed', [20, -30.1, 20.2, -29.9], { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 1, 1) }).values;
    let lo = Infinity;
    for (const v of w) lo = Math.min(lo, v);
    expect(lo).toBeGreaterThanOrEqual(0.5);
  });
});
