import { ET_INPUT_VARIABLES, GridRequestError, readsSubgrids, type TimeRange, type VariableId } from '../src/grid/grid-source.js';
import { SyntheticSource } from '../src/synthetic/index.js';

/** Sub-grid reads of the synthetic world: at every sampled point, the value a window read of that point gives. */
const NOW = Date.UTC(2024, 6, 1, 12);
const src = new SyntheticSource({ now: () => NOW });
const DAY: TimeRange = { startMs: Date.UTC(2024, 5, 20), endMs: Date.UTC(2024, 5, 21) };
const HOURS: TimeRange = { startMs: Date.UTC(2024, 5, 28, 5), endMs: Date.UTC(2024, 5, 28, 16) };

/** Rows and columns far apart, across the antimeridian's neighbourhood, the poles' and a coast (Iowa to the Gulf). */
const LATS = Float64Array.of(-89.99, -33.4, 29.3, 42.03, 42.28, 89.99);
const LONS = Float64Array.of(-180, -179.75, -93.63, -90.1, 7.31, 179.99);

async function pointValues(variable: VariableId, lat: number, lon: number, range: TimeRange): Promise<number[]> {
  const w = await src.window(variable, [lon, lat, lon, lat], range);
  expect([w.lats.length, w.lons.length]).toEqual([1, 1]);
  return Array.from(w.values);
}

describe('SyntheticSource: sub-grid reads', () => {
  it('is a source that reads sub-grids', () => {
    expect(readsSubgrids(src)).toBe(true);
  });

  it.each([
    ['hourly temperature and precipitation type', ['air_temperature', 'precipitation_type'] as VariableId[], HOURS],
    [
      'hourly shortwave, wind and pressure',
      ['surface_downwelling_shortwave_flux_in_air', 'wind_speed', 'surface_air_pressure'] as VariableId[],
      HOURS,
    ],
    ['both daily extremes', ['air_temperature_daily_max', 'air_temperature_daily_min'] as VariableId[], DAY],
    ['one daily extreme and the altitude', ['air_temperature_daily_min', 'surface_altitude'] as VariableId[], DAY],
  ])('gives each point the value of a window read of it: %s', async (_what, variables, range) => {
    const windows = await src.subgrid(variables, LATS, LONS, range);
    expect(windows.map((w) => w.variable)).toEqual(variables);
    for (const [k, w] of windows.entries()) {
      expect(Array.from(w.lats)).toEqual(Array.from(LATS));
      expect(Array.from(w.lons)).toEqual(Array.from(LONS));
      const cells = LATS.length * LONS.length;
      expect(w.values).toHaveLength(cells * w.nt);
      for (const [r, lat] of LATS.entries())
        for (const [c, lon] of LONS.entries()) {
          const expected = await pointValues(variables[k]!, lat, lon, range);
          expect(expected).toHaveLength(w.nt);
          const got = Array.from({ length: w.nt }, (_, t) => w.values[t * cells + r * LONS.length + c]!);
          expect(got).toEqual(expected);
        }
    }
  });

  it('snaps each coordinate to its nearest grid point, clamped to the grid', async () => {
    const [w] = await src.subgrid(['surface_altitude'], Float64Array.of(42.0312, 90), Float64Array.of(-93.6349, 180), DAY);
    expect(Array.from(w!.lats)).toEqual([42.03, 90]);
    expect(Array.from(w!.lons)).toEqual([-93.63, 179.99]);
  });

  it('refuses coordinates out of order or off the globe, and requests over the size limit', async () => {
    const refused = (p: Promise<unknown>, code: string) => expect(p).rejects.toMatchObject({ name: GridRequestError.name, code });
    await refused(src.subgrid(['wind_speed'], Float64Array.of(10, 9), Float64Array.of(0), HOURS), 'invalid_location');
    await refused(src.subgrid(['wind_speed'], Float64Array.of(10), Float64Array.of(0, 181), HOURS), 'invalid_location');
    await refused(src.subgrid(['wind_speed'], Float64Array.of(Number.NaN), Float64Array.of(0), HOURS), 'invalid_location');
    const small = new SyntheticSource({ now: () => NOW, maxValues: 100 });
    await refused(small.subgrid(['wind_speed'], LATS, LONS, HOURS), 'too_large');
  });
});

/**
 * Point grids: many points at one instant (a map tile's pixel centres) read as one sub-grid of
 * the grid points around them, each value exactly the point read's.
 */
describe('SyntheticSource: point grids', () => {
  /** Between grid points, on them (a weight of zero), at the poles and both ends of the antimeridian, in no order. */
  const PLATS = Float64Array.of(42.0312, -89.99, 90, -90, 41.999, 42.03, 0.005, 71.234567);
  const PLONS = Float64Array.of(-93.6349, 180, -180, 179.995, -0.004, 7.31, 12.3456789, -93.63);
  const HOUR = Date.UTC(2024, 5, 28, 14);

  it.each([
    [
      'every hourly variable',
      [
        'air_temperature',
        'dew_point_temperature',
        'surface_downwelling_shortwave_flux_in_air',
        'wind_speed',
        'surface_air_pressure',
        'precipitation_type',
      ] as VariableId[],
      HOUR,
    ],
    [
      'the daily extremes and the altitude',
      ['air_temperature_daily_max', 'air_temperature_daily_min', 'surface_altitude'] as VariableId[],
      DAY.startMs,
    ],
  ])('gives each point what its point read gives: %s', async (_what, variables, timeMs) => {
    const grids = await src.pointGrid(variables, PLATS, PLONS, timeMs);
    expect(grids).toHaveLength(variables.length);
    for (const [k, values] of grids.entries()) {
      expect(values).toHaveLength(PLATS.length * PLONS.length);
      for (const [r, lat] of PLATS.entries())
        for (const [c, lon] of PLONS.entries()) {
          const series = await src.pointSeries(variables[k]!, lon, lat, { startMs: timeMs, endMs: timeMs });
          expect([variables[k], lat, lon, values[r * PLONS.length + c]]).toEqual([variables[k], lat, lon, series.values[0]]);
        }
    }
  });

  it('gives the evapotranspiration inputs their batched point read', async () => {
    const variables = Object.values(ET_INPUT_VARIABLES);
    const grids = await src.pointGrid(variables, PLATS, PLONS, HOUR);
    for (const [r, lat] of PLATS.entries())
      for (const [c, lon] of PLONS.entries()) {
        const inputs = await src.etInputsAt(lon, lat, { startMs: HOUR, endMs: HOUR });
        const read = Object.values(inputs).map((s) => s.values[0]);
        expect(grids.map((g) => g[r * PLONS.length + c])).toEqual(read);
      }
  });

  it('is empty where the instant has no step, and refuses points off the globe', async () => {
    const [values] = await src.pointGrid(['air_temperature_daily_max'], PLATS, PLONS, DAY.startMs + 3_600_000);
    const series = await src.pointSeries('air_temperature_daily_max', 0, 0, {
      startMs: DAY.startMs + 3_600_000,
      endMs: DAY.startMs + 3_600_000,
    });
    expect([values!.length, series.values.length]).toEqual([0, 0]);
    await expect(src.pointGrid(['wind_speed'], Float64Array.of(91), Float64Array.of(0), HOUR)).rejects.toMatchObject({
      code: 'invalid_location',
    });
    await expect(src.pointGrid(['wind_speed'], Float64Array.of(0), Float64Array.of(Number.NaN), HOUR)).rejects.toMatchObject({
      code: 'invalid_location',
    });
  });
});

describe('SyntheticSource: daily extremes of many points read together', () => {
  const SEASON: TimeRange = { startMs: Date.UTC(2024, 0, 20), endMs: Date.UTC(2024, 4, 30) };
  // Scattered, by the antimeridian and the poles, on a grid point, and one place twice.
  const points: [number, number][] = [
    [-93.6319, 42.0308],
    [179.995, -10.3],
    [-180, 65.2],
    [12.34, 89.999],
    [-45.5, -90],
    [7.31, 29.3],
    [-93.6319, 42.0308],
    ...Array.from({ length: 40 }, (_, k): [number, number] => [-179 + 8.9 * k, -80 + 4.1 * k]),
  ];

  it('gives every point what its own read gives, in order', async () => {
    const lons = Float64Array.from(points, ([lon]) => lon),
      lats = Float64Array.from(points, ([, lat]) => lat);
    const together = await src.dailyExtremesAtPoints(lons, lats, SEASON);
    expect(together).toHaveLength(points.length);
    for (const [k, [lon, lat]] of points.entries()) {
      const own = await new SyntheticSource({ now: () => NOW }).dailyExtremesAt(lon, lat, SEASON);
      expect(Array.from(together[k]!.tmax.values)).toEqual(Array.from(own.tmax.values));
      expect(Array.from(together[k]!.tmin.values)).toEqual(Array.from(own.tmin.values));
      expect([together[k]!.tmax.startMs, together[k]!.tmax.stepMs, together[k]!.tmax.units]).toEqual([
        own.tmax.startMs,
        own.tmax.stepMs,
        own.tmax.units,
      ]);
    }
  });

  it('refuses unequal lists of longitudes and latitudes', async () => {
    await expect(src.dailyExtremesAtPoints(Float64Array.of(1, 2), Float64Array.of(3), SEASON)).rejects.toThrow(GridRequestError);
  });
});
