import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { type GridSource, loadWeatherSource } from '@fieldcast/weather';
import { PACIFIC, writeSyncedRun } from '../../../packages/weather/test/synced-store.js';
import { binary, pathOf, PRODUCT, testCatalog, testTransferService } from './helpers.js';
import { readNetcdf4 } from './netcdf-reader.js';
import { readTiff } from './tiff-reader.js';

/*
 * A synced store over the Pacific, its columns 150 to 230 (1°) kept in 0..360 across the
 * antimeridian (docs/decisions/0444-tiles-wrap-longitudes-into-the-grid.md), rows 0 to 30: the
 * record states its cells as RFC 7946 §5.2 states a bbox across the antimeridian, from 149.5 east
 * to 129.5 W, west past east; the files keep the store's regular grid in 0..360
 * (docs/decisions/0468-dataset-bounds-across-the-antimeridian.md).
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const clock = { ms: RUN + 6 * H };
const options: TestFleetOptions = { now: () => new Date(clock.ms), catalog: testCatalog() };
/** °C in the store's longitudes. */
const celsius = (lat: number, lon: number) => lat + lon / 100;
let dir: string;
let weather: GridSource;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-antimeridian-transfer-'));
  await writeSyncedRun(dir, 'gfs-0p25', {
    runMs: RUN,
    ...PACIFIC,
    fields: [
      { name: 'air_temperature', units: 'degC', value: celsius },
      { name: 'air_temperature_daily_max', units: 'degC', value: celsius, axis: 'daily' },
    ],
  });
  weather = await loadWeatherSource({ syncDir: dir, reloadMs: H, now: () => clock.ms, synthetic: false });
  options.weather = weather;
});
afterAll(async () => {
  await (weather as { close?: () => Promise<void> } | undefined)?.close?.();
  rmSync(dir, { recursive: true, force: true });
});

const t = useTestFleet([testTransferService()], options);

interface Record {
  downloadUrl: string;
  bounds: number[];
  resolution: number;
  width: number;
  height: number;
}

async function dataset(product: string): Promise<{ record: Record; body: Buffer }> {
  const list = await request(t.fleet.app('transfer'))
    .get(`/products/gfs-0p25.${product}/datasets?date=2026-12-03`)
    .set('Authorization', t.alice.auth);
  expect(list.status).toBe(200);
  const record = list.body[0] as Record;
  const res = await request(t.fleet.app('transfer')).get(pathOf(record.downloadUrl)).buffer(true).parse(binary);
  expect(res.status).toBe(200);
  return { record, body: res.body as Buffer };
}

it('states the bounds west past east, and a NetCDF file on the regular grid in 0..360 with values on both sides', async () => {
  const { record, body } = await dataset(PRODUCT.hourly);
  expect([record.width, record.height, record.resolution]).toEqual([81, 31, 1]);
  expect(record.bounds).toEqual([149.5, -0.5, -129.5, 30.5]);

  const nc = await readNetcdf4(body);
  // The title says what the product holds, then which file this is.
  expect(nc.attributes.title).toMatch(/: one NetCDF file per day of the hours synced; this file valid 2026-12-03T00:00:00Z$/);
  const lon = [...nc.read('lon')];
  expect([lon[0], lon[30], lon[80]]).toEqual([150, 180, 230]);
  expect([...nc.read('lon_bnds')].slice(-2)).toEqual([229.5, 230.5]);
  // Every cell holds a value, east of the antimeridian too.
  expect([...nc.read('air_temperature')].every((v) => Number.isFinite(v))).toBe(true);
});

it('states the same bounds for a GeoTIFF, whose geotransform starts at 149.5 and runs on past 180', async () => {
  const { record, body } = await dataset(PRODUCT.tmax);
  expect(record.bounds).toEqual([149.5, -0.5, -129.5, 30.5]);
  const image = readTiff(body);
  expect(image.width).toBe(81);
  expect(image.tags.get(33922)).toEqual([0, 0, 0, 149.5, 30.5, 0]);
  expect(image.tags.get(33550)).toEqual([1, 1, 0]);
  expect([...image.band(0)].every((v) => Number.isFinite(v))).toBe(true);
});

it('says in /openapi.json how a record states bounds across the antimeridian', async () => {
  const doc = (await request(t.fleet.app('transfer')).get('/openapi.json')).body as {
    components: { schemas: { TransferDataset: { properties: { bounds: { description: string } } } } };
  };
  expect(doc.components.schemas.TransferDataset.properties.bounds.description).toMatch(/antimeridian.*west.*east.*RFC 7946 §5\.2/);
});
