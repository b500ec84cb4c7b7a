import type { HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import type { VariableId } from '@fieldcast/weather';
import type { AssetRecord } from '../src/domain/assets.js';
import { hourlySeriesJson } from '../src/domain/hourly-series.js';
import { HourlyTableSource } from './hourly-table-source.js';

/*
 * A source without surface_altitude (a synced GFS run) gives the height from its surface pressure
 * (docs/decisions/0111-hourly-series.md). An hour's ET is the same in every series that holds it,
 * at a point and over an asset, however many hours the series reads around it
 * (docs/decisions/0475-et-height-from-the-hours-pressure.md): a front passing (pressure from 92 to
 * 100 kPa) must not change the ET of an hour a day after it with the length of the series.
 */
const H = 3_600_000;
const FRONT = Date.UTC(2026, 5, 10, 0);
const air = (variable: VariableId, _lat: number, _lon: number, t: number): number =>
  ({
    air_temperature: 25,
    dew_point_temperature: 8,
    wind_speed: 3,
    surface_downwelling_shortwave_flux_in_air: 400,
    surface_air_pressure: t < FRONT ? 92 : 100,
  })[variable as string] ?? 0;
const source = new HourlyTableSource(air, Date.UTC(2026, 5, 15, 12), 'Wind speed at 2 m', false);

const query = (firstMs: number, lastMs: number): HourlyQuery => ({
  firstMs,
  lastMs,
  startTime: 'a',
  endTime: 'b',
  defaulted: false,
  unit: 'millimeters',
});
const asset: AssetRecord = {
  id: '0b7c9a52-4f5e-4d0a-9a53-3f1d7f7a2c11',
  accountId: 'a',
  tags: {},
  polygon: [
    [
      [-93.9, 42.1],
      [-93.1, 42.1],
      [-93.1, 42.9],
      [-93.9, 42.9],
      [-93.9, 42.1],
    ],
  ],
  centroid: { latitude: 42.5, longitude: -93.5 },
  areaM2: 0,
};
const valuesOf = async (place: Parameters<typeof hourlySeriesJson>[2], q: HourlyQuery) =>
  (JSON.parse(await hourlySeriesJson(source, 'evapotranspiration', place, q)) as HourlySeries).series.map((e) => e.value);

describe.each([
  ['at a point', { latitude: 42.5, longitude: -93.5 }],
  ['over an asset', { asset }],
])('ET from the pressure of a source without ground height, %s', (_name, place) => {
  it('an hour a day after a front has one value, in a series of that hour and in one of the days around it', async () => {
    const hour = FRONT + 30 * H;
    const [alone] = await valuesOf(place, query(hour, hour));
    const long = await valuesOf(place, query(FRONT - 36 * H, FRONT + 36 * H));
    expect(long[66]).toBe(alone);
  });

  it('the hour takes the height its own pressure implies: 100 kPa is 111 m, not the height of the days around it', async () => {
    // midday, 20 h after the front: the 24 hours read before it hold 4 of 92 kPa
    const hour = FRONT + 20 * H;
    const [alone] = await valuesOf(place, query(hour, hour));
    const atSea = new HourlyTableSource(
      (v, lat, lon, t) => (v === 'surface_altitude' ? (293 * (1 - (100 / 101.3) ** (1 / 5.26))) / 0.0065 : air(v, lat, lon, t)),
      Date.UTC(2026, 5, 15, 12),
    );
    const withHeight = JSON.parse(await hourlySeriesJson(atSea, 'evapotranspiration', place, query(hour, hour))) as HourlySeries;
    expect(alone).toBe(withHeight.series[0]!.value);
  });
});
