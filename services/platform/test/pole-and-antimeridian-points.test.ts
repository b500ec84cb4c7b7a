import { createCatalog, SyntheticSource } from '@fieldcast/weather';
import { frameValueAt } from '../src/domain/frame-values.js';
import { SAME_PLACES } from '@fieldcast/runtime/testing';

/*
 * A datapoint reads one place one value (docs/decisions/0428-one-point-read-per-place.md): every
 * longitude at a pole is the one pole, and longitude 180 is -180, for the gridded products and the
 * derived ones alike.
 */
const world = new SyntheticSource({ now: () => Date.UTC(2025, 5, 20, 12) });
/** A frame valid at midnight: a time of the hourly products and a date of the daily ones. */
const VALID_MS = Date.UTC(2025, 5, 18);
const PRODUCTS = [
  'air-temperature',
  'air-temperature-daily-max',
  'dew-point-temperature',
  'relative-humidity',
  'evapotranspiration-short-crop',
  'shortwave-radiation',
];
const products = createCatalog()
  .products()
  .filter((p) => PRODUCTS.includes(p.name));

it('reads every product named', () => {
  expect(products.map((p) => p.name).sort()).toEqual([...PRODUCTS].sort());
});

describe.each(SAME_PLACES)('(%p, %p) is (%p, %p)', (lon, lat, placeLon, placeLat) => {
  it.each(PRODUCTS)('%s', async (name) => {
    const product = products.find((p) => p.name === name)!;
    expect(await frameValueAt(world, product, VALID_MS, lon, lat)).toEqual(
      await frameValueAt(world, product, VALID_MS, placeLon, placeLat),
    );
  });
});
