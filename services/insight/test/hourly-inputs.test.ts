import type { HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import {
  atmosphericPressure,
  dayOfYear,
  hourlyReferenceEt,
  hourlyReferenceEtSeries,
  relativeHumidity,
  saturationVapourPressureTetens,
} from '@fieldcast/science';
import { elevationFromPressure, type VariableId, windHeightOf } from '@fieldcast/weather';
import { hourlySeriesJson } from '../src/domain/hourly-series.js';
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
    expect(elevationFromPressure(90.0)).toBeCloseTo(1000, -1);
    expect(elevationFromPressure(atmosphericPressure(1462.4))).toBeCloseTo(1462.4, 6);
    expect(elevationFromPressure(102)).toBe(0);
    expect(elevationFromPressure(Number.NaN)).toBe(0);
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

/**
 * A day of changing weather at Greeley's latitude (40.41°N, 104.78°W, ASCE-EWRI 2005 Appendix C):
 * temperature, wind and sun follow the clock, the dewpoint the latitude and the ground the
 * longitude, so an entry computed from the wrong stamps, the wrong midpoint or another cell's
 * height differs from the hour by hand.
 */
const changing = (variable: VariableId, lat: number, lon: number, t: number): number => {
  const h = t / HOUR_MS;
  switch (variable) {
    case 'air_temperature':
      return 20 + 8 * Math.sin((2 * Math.PI * (h - 15)) / 24);
    case 'dew_point_temperature':
      return 8 + lat / 10;
    case 'wind_speed':
      return 2 + (h % 5) / 4;
    case 'surface_downwelling_shortwave_flux_in_air':
      // local solar hour from the UTC hour and longitude: the sun up from 06 to 18 local
      return Math.max(0, 900 * Math.sin((Math.PI * ((h % 24) + lon / 15 - 6)) / 12));
    case 'surface_air_pressure':
      return 95;
    case 'surface_altitude':
      return 1500 + 10 * lon;
    default:
      return 0;
  }
};

/**
 * ETos of the hours by hand (docs/decisions/0111-hourly-series.md): the hour from validTime to
 * validTime + 1 h takes the means of its two bounding stamps and its sun at the midpoint (UTC
 * clock, ASCE-EWRI 2005 eqs. 48 and 53-56), ea = e°(dewpoint) (eq. 8), pressure from the cell's
 * height (eq. 3), and the night and low-sun hours the carried fcd of the 24 hours before
 * (docs/decisions/0110-low-sun-cloudiness.md), as packages/science computes the published examples.
 */
function etByHand(lat: number, lon: number, firstMs: number, hours: number): number[] {
  const inputs = [];
  for (let k = -24; k < hours; k++) {
    const a = firstMs + k * HOUR_MS;
    const mean = (v: VariableId) => (changing(v, lat, lon, a) + changing(v, lat, lon, a + HOUR_MS)) / 2;
    const mid = new Date(a + HOUR_MS / 2);
    inputs.push({
      temperature: mean('air_temperature'),
      actualVapourPressure: saturationVapourPressureTetens(mean('dew_point_temperature')),
      solarRadiation: mean('surface_downwelling_shortwave_flux_in_air') * 0.0036,
      windSpeed: mean('wind_speed'),
      elevation: changing('surface_altitude', lat, lon, a),
      latitude: lat,
      longitude: lon,
      dayOfYear: dayOfYear(mid),
      midpointHour: mid.getUTCHours() + 0.5,
    });
  }
  return hourlyReferenceEtSeries(inputs)
    .slice(24)
    .map((r) => r.et);
}

describe('a day of changing weather: each entry is the hour from its validTime', () => {
  const source = new HourlyTableSource(changing, BOUNDARY);
  const values = (s: HourlySeries) => s.series.map((e) => e.value);

  it('ET at a point is the hour by hand, to the served 0.001 mm/h', async () => {
    const out = await hourlySeries(source, 'evapotranspiration', { latitude: 40.5, longitude: -104.5 }, query);
    const byHand = etByHand(40.5, -104.5, first, 24);
    expect(values(out)).toHaveLength(24);
    values(out).forEach((v, h) => expect(Math.abs(v - byHand[h]!)).toBeLessThanOrEqual(0.0005 + 1e-9));
    // daylight ET is there, and where the sun is (local noon about 19:00Z at 104.5°W)
    expect(Math.max(...values(out))).toBe(values(out)[19]);
  });

  it('ET and RH over an asset half in each of two cells are the means of the cells by hand', async () => {
    // cells are 1 degree centred on x.5: the asset lies half in the cell of 105.5°W, half in that of 104.5°W
    const ring = [
      [-105.5, 40.2],
      [-104.5, 40.2],
      [-104.5, 40.8],
      [-105.5, 40.8],
      [-105.5, 40.2],
    ];
    const asset = {
      id: '0b7c9a52-4f5e-4d0a-9a53-3f1d7f7a2c11',
      accountId: 'a',
      tags: {},
      polygon: [ring],
      centroid: { latitude: 40.5, longitude: -105 },
      areaM2: 0,
    };
    const west = etByHand(40.5, -105.5, first, 24);
    const east = etByHand(40.5, -104.5, first, 24);
    const et = await hourlySeries(source, 'evapotranspiration', { asset }, query);
    values(et).forEach((v, h) => expect(Math.abs(v - (west[h]! + east[h]!) / 2)).toBeLessThanOrEqual(0.0005 + 1e-6));
    const rh = await hourlySeries(source, 'relative-humidity', { asset }, query);
    values(rh).forEach((v, h) => {
      const a = first + h * HOUR_MS;
      const t = (changing('air_temperature', 40.5, 0, a) + changing('air_temperature', 40.5, 0, a + HOUR_MS)) / 2;
      // Bolton (1980) from the hour's mean temperature and dewpoint, to the served 0.1 %
      expect(Math.abs(v - relativeHumidity(t, 8 + 40.5 / 10))).toBeLessThanOrEqual(0.05 + 1e-9);
    });
  });
});

describe('a source whose stamps are not hourly', () => {
  // An ingested 3-hourly store: a series entry is one hour (docs/decisions/0111-hourly-series.md),
  // and reading its stamps as hours would label each value with the wrong hour.
  const threeHourly = new HourlyTableSource(world(2), BOUNDARY, 'Wind speed at 2 m', true, 3 * HOUR_MS);
  const asset = {
    id: 'a',
    accountId: 'x',
    tags: {},
    polygon: [
      [
        [0, 0],
        [2, 0],
        [2, 2],
        [0, 2],
        [0, 0],
      ],
    ],
    centroid: { latitude: 1, longitude: 1 },
    areaM2: 4.9e10,
  };

  it.each([
    ['relative-humidity', { latitude: 0.5, longitude: 0.5 }],
    ['evapotranspiration', { latitude: 0.5, longitude: 0.5 }],
    ['relative-humidity', { asset }],
    ['evapotranspiration', { asset }],
  ] as const)('answers %s at %j with 503 weather_data_missing, never values of the wrong hours', async (quantity, place) => {
    await expect(hourlySeries(threeHourly, quantity, place, query)).rejects.toMatchObject({ code: 'weather_data_missing' });
  });
});
