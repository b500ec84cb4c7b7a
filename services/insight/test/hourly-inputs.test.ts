import type { HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import { atmosphericPressure, hourlyReferenceEt, saturationVapourPressureTetens } from '@fieldcast/science';
import type { VariableId } from '@fieldcast/weather';
import { elevationFromPressure } from '../src/domain/elevation.js';
import { hourlySeriesJson, windHeightOf } from '../src/domain/hourly-series.js';
import { HourlyTableSource } from './hourly-table-source.js';

const HOUR_MS = 3_600_000;
const first = Date.UTC(2026, 5, 14, 0);
const query: HourlyQuery = {
  firstMs: first,
  lastMs: first + 23 * HOUR_MS,
  startTime: 'a',
  endTime: 'b',
  defaulted: false,
  unit: 'millimeters',
};
const BOUNDARY = Date.UTC(2026, 5, 15, 12);
const hourlySeries = async (...args: Parameters<typeof hourlySeriesJson>) => JSON.parse(await hourlySeriesJson(...args)) as HourlySeries;

/** Fixed air over a 1,000 m plateau; `wind` is the source's wind reading at its own height. */
const world =
  (wind: number) =>
  (variable: VariableId): number =>
    ({
      air_temperature: 20,
      dew_point_temperature: 10,
      wind_speed: wind,
      surface_air_pressure: atmosphericPressure(1000),
      surface_altitude: 1000,
    })[variable as string] ?? 0;

describe('the height of the place and of the wind', () => {
  it('pressure back to height inverts ASCE-EWRI 2005 eq. 3 (FAO-56 Table 2.1: 1,000 m is 90.0 kPa)', () => {
    expect(elevationFromPressure([90.0])).toBeCloseTo(1000, -1);
    expect(elevationFromPressure([atmosphericPressure(1462.4), atmosphericPressure(1462.4)])).toBeCloseTo(1462.4, 6);
    expect(elevationFromPressure([102])).toBe(0);
    expect(elevationFromPressure([])).toBe(0);
  });

  it('a source without surface_altitude gives the same ET through its pressure', async () => {
    const withHeight = await hourlySeries(
      new HourlyTableSource(world(2), BOUNDARY),
      'evapotranspiration',
      { latitude: 0.5, longitude: 0.5 },
      query,
    );
    const fromPressure = await hourlySeries(
      new HourlyTableSource(world(2), BOUNDARY, 'Wind speed at 2 m', false),
      'evapotranspiration',
      { latitude: 0.5, longitude: 0.5 },
      query,
    );
    expect(fromPressure.series).toEqual(withHeight.series);
    // and the height matters: at sea level the same air gives another ET
    const sea = (v: VariableId) => (v === 'surface_altitude' ? 0 : world(2)(v));
    const atSea = await hourlySeries(new HourlyTableSource(sea, BOUNDARY), 'evapotranspiration', { latitude: 0.5, longitude: 0.5 }, query);
    expect(atSea.series.map((e) => e.value)).not.toEqual(withHeight.series.map((e) => e.value));
  });

  it('a 10 m wind is brought to 2 m with ASCE-EWRI 2005 eq. 33', async () => {
    const u10 = 3.2;
    const u2 = (u10 * 4.87) / Math.log(67.8 * 10 - 5.42); // 2.39 m/s (FAO-56 Example 14: 2.4)
    const tenMetre = new HourlyTableSource(world(u10), BOUNDARY, 'Wind speed at 10 m');
    expect(windHeightOf(tenMetre)).toBe(10);
    expect(windHeightOf(new HourlyTableSource(world(2), BOUNDARY, 'wind_speed'))).toBe(2);
    const a = await hourlySeries(tenMetre, 'evapotranspiration', { latitude: 0.5, longitude: 0.5 }, query);
    const b = await hourlySeries(
      new HourlyTableSource(world(u2), BOUNDARY),
      'evapotranspiration',
      { latitude: 0.5, longitude: 0.5 },
      query,
    );
    expect(a.series).toEqual(b.series);
  });

  it('a night hour at 1,000 m is the standard’s value for P = 90.0 kPa', async () => {
    // Rs 0 every hour: every hour carries fcd 0.055 (the floor of eq. 45), as in hourly-series.test.ts.
    const out = await hourlySeries(
      new HourlyTableSource(world(2), BOUNDARY),
      'evapotranspiration',
      { latitude: 0.5, longitude: 0.5 },
      query,
    );
    const r = hourlyReferenceEt({
      temperature: 20,
      actualVapourPressure: saturationVapourPressureTetens(10),
      solarRadiation: 0,
      windSpeed: 2,
      elevation: 1000,
      latitude: 0.5,
      longitude: 0.5,
      dayOfYear: 165,
      midpointHour: 0.5,
      carriedCloudiness: 0.055,
    });
    expect(r.pressure).toBeCloseTo(90.0, 1);
    expect(out.series[0]!.value).toBeCloseTo(r.et, 3);
  });
});

describe('an asset too small for any grid cell to count', () => {
  it('is its centroid', async () => {
    const source = new HourlyTableSource(world(2), BOUNDARY);
    const d = 1e-7; // a square of about 1e-4 m²: below cellWeights' sliver floor in every cell
    const polygon = [
      [
        [0.5, 0.5],
        [0.5 + d, 0.5],
        [0.5 + d, 0.5 + d],
        [0.5, 0.5 + d],
        [0.5, 0.5],
      ],
    ];
    const asset = {
      id: '0b7c9a52-4f5e-4d0a-9a53-3f1d7f7a2c11',
      accountId: 'a',
      tags: {},
      polygon,
      centroid: { latitude: 0.5, longitude: 0.5 },
      areaM2: 1e-4,
    };
    const byAsset = await hourlySeries(source, 'relative-humidity', { asset }, query);
    const atPoint = await hourlySeries(source, 'relative-humidity', { latitude: 0.5, longitude: 0.5 }, query);
    expect(byAsset.series).toEqual(atPoint.series);
    expect(byAsset.asset).toBe(`/assets/${asset.id}`);
  });
});
