import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChillQuery, DegreeDayQuery } from '@fieldcast/schemas';
import { GridStoreWriter, SyntheticSource, ZarrSource } from '@fieldcast/weather';
import { locationChill } from '../src/domain/chill.js';
import { degreeDayPoints, locationDegreeDays } from '../src/domain/growing-degree-days.js';
import { SAME_PLACES } from '@fieldcast/runtime/testing';

/*
 * Degree days and chill at a location read one place one value (docs/decisions/0428-one-point-read-per-place.md):
 * every longitude at a pole is the one pole, and longitude 180 is -180. The results echo the
 * longitude asked for; everything else is the same.
 */
const HOUR_MS = 3_600_000;
const world = new SyntheticSource({ now: () => Date.UTC(2025, 7, 20, 10) });
// A base below the poles' summer, so their degree days are not all zero.
const gdd: DegreeDayQuery = {
  base: -40,
  scale: 'celsius',
  start: '2025-07-01',
  end: '2025-07-10',
  method: 'average',
  daily: true,
  given: {},
};
const chill: ChillQuery = { model: 'utah', start: '2025-06-01', end: '2025-06-01', daily: true };

const withoutLongitude = <T extends { longitude: number }>({ longitude: _, ...rest }: T) => rest;

let tmp: string;
let store: ZarrSource;

/**
 * Hourly temperatures in the Utah model's range on a global 5 degree grid whose rows reach both
 * poles, different in every column: the synthetic poles are too cold for chill to tell places apart.
 */
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-pole-chill-'));
  const dir = path.join(tmp, 'chill.zarr');
  const lats = Array.from({ length: 37 }, (_, i) => -90 + i * 5);
  const lons = Array.from({ length: 72 }, (_, j) => -180 + j * 5);
  const nt = 48;
  const w = await GridStoreWriter.create(dir, { lats, lons, attributes: { title: 'chill', product: 'chill-analysis' } });
  await w.addTimeAxis({ name: 'time', startMs: Date.UTC(2025, 5, 1), stepMs: HOUR_MS, length: nt });
  await w.addVariable({ name: 'air_temperature', time: 'time', attributes: { standard_name: 'air_temperature', units: 'degC' } });
  const data = new Float32Array(nt * lats.length * lons.length);
  for (let t = 0; t < nt; t++)
    for (let i = 0; i < lats.length; i++)
      for (let j = 0; j < lons.length; j++) data[(t * lats.length + i) * lons.length + j] = 3 + j * 0.15 + (t % 24) * 0.1;
  await w.write('air_temperature', data);
  await w.close();
  store = await ZarrSource.open(dir);
});
afterAll(async () => {
  await store.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe.each(SAME_PLACES)('(%p, %p) is (%p, %p)', (lon, lat, placeLon, placeLat) => {
  it('degree days at the location, alone and in a batch', async () => {
    const place = withoutLongitude(await locationDegreeDays(world, gdd, placeLat, placeLon));
    expect(withoutLongitude(await locationDegreeDays(world, gdd, lat, lon))).toEqual(place);
    const batch = await degreeDayPoints(
      world,
      [
        { longitude: lon, latitude: lat },
        { longitude: placeLon, latitude: placeLat },
      ],
      gdd,
    );
    expect(batch.map(withoutLongitude)).toEqual([place, place]);
  });

  it('chill at the location', async () => {
    const place = withoutLongitude(await locationChill(store, chill, placeLat, placeLon));
    expect(withoutLongitude(await locationChill(store, chill, lat, lon))).toEqual(place);
  });
});
