import type { HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import { SyntheticSource } from '@fieldcast/weather';
import { type HourlyQuantity, hourlySeriesJson } from '../src/domain/hourly-series.js';
import { SAME_PLACES } from '@fieldcast/runtime/testing';

/*
 * Hourly relative humidity and ET at a point read one place one value
 * (docs/decisions/0428-one-point-read-per-place.md): every longitude at a pole is the one pole,
 * and longitude 180 is -180. The series echo the longitude asked for; everything else is the same.
 */
const HOUR_MS = 3_600_000;
const first = Date.UTC(2025, 5, 18);
const world = new SyntheticSource({ now: () => Date.UTC(2025, 5, 18, 12) });
const query: HourlyQuery = {
  firstMs: first,
  lastMs: first + 23 * HOUR_MS,
  startTime: 'a',
  endTime: 'b',
  defaulted: false,
  unit: 'millimeters',
};

const series = async (quantity: HourlyQuantity, longitude: number, latitude: number) => {
  const { longitude: _, ...rest } = JSON.parse(await hourlySeriesJson(world, quantity, { latitude, longitude }, query)) as HourlySeries;
  return rest;
};

describe.each(SAME_PLACES)('(%p, %p) is (%p, %p)', (lon, lat, placeLon, placeLat) => {
  it.each<HourlyQuantity>(['relative-humidity', 'evapotranspiration'])('%s', async (quantity) => {
    expect(await series(quantity, lon, lat)).toEqual(await series(quantity, placeLon, placeLat));
  });
});
