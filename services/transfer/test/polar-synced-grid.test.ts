import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { binary, pathOf, PRODUCT, testCatalog, testTransferService } from './helpers.js';
import { readNetcdf4 } from './netcdf-reader.js';

/*
 * A synced store whose outer row is centred on the North Pole, as a global GFS store's is, at a
 * spacing its micro-degree coordinates give with binary noise (0.10000000000000142): the record
 * states the cells' extent on the globe, north at 90 (RFC 7946 §5), and the spacing rounded as
 * its edges are; the NetCDF file states each cell's bounds, the pole row's ending at the pole
 * (CF 1.11 §7.1), and the 2 m height of its air temperature (CF 1.11 §6.1.1)
 * (docs/decisions/0467-cells-centred-on-a-pole.md).
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const clock = { ms: RUN + 6 * H };
const options: TestFleetOptions = { now: () => new Date(clock.ms), catalog: testCatalog() };
let run: OneSyncedRun;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, {
    archived: [0, 1],
    syncedAtMs: RUN + 5 * H,
    now: () => clock.ms,
    synthetic: false,
    // Rows 90 down to 89.6, columns 20 to 19.3 W, a tenth apart (west of 0, so runs.ts's analytic shortwave stays positive).
    grid: { ni: 8, nj: 5, lat1: 90, lon1: -20, dLat: 0.1, dLon: 0.1 },
  });
  options.weather = run.weather;
}, 60_000);
afterAll(() => run?.close());

const t = useTestFleet([testTransferService()], options);

it('states bounds within the globe and a tidy resolution, and a NetCDF file with the cells it states and its height', async () => {
  const list = await request(t.fleet.app('transfer'))
    .get(`/products/gfs-0p25.${PRODUCT.hourly}/datasets?date=2026-12-03`)
    .set('Authorization', t.alice.auth);
  expect(list.status).toBe(200);
  const d = list.body[0] as { downloadUrl: string; bounds: number[]; resolution: number; width: number; height: number };
  expect([d.width, d.height]).toEqual([8, 5]);
  expect(d.bounds).toEqual([-20.05, 89.55, -19.25, 90]);
  expect(d.resolution).toBe(0.1);

  const res = await request(t.fleet.app('transfer')).get(pathOf(d.downloadUrl)).buffer(true).parse(binary);
  expect(res.status).toBe(200);
  const nc = await readNetcdf4(res.body as Buffer);
  // The coordinates keep the regular grid: the pole row centred on the pole.
  expect([...nc.read('lat')]).toEqual([90, 89.9, 89.8, 89.7, 89.6]);
  expect(nc.variables.lat!.attributes.bounds).toBe('lat_bnds');
  expect(nc.variables.lon!.attributes.bounds).toBe('lon_bnds');
  expect(nc.variables.lat_bnds!.dims).toEqual(['lat', 'nv']);
  expect([...nc.read('lat_bnds')]).toEqual([90, 89.95, 89.95, 89.85, 89.85, 89.75, 89.75, 89.65, 89.65, 89.55]);
  expect([...nc.read('lon_bnds')].slice(0, 4)).toEqual([-20.05, -19.95, -19.95, -19.85]);
  expect([...nc.read('lon_bnds')].slice(-2)).toEqual([-19.35, -19.25]);
  // A scalar coordinate: h5wasm reads its one value as a number.
  expect(nc.variables.height!.dims).toEqual([]);
  expect(Number(nc.read('height') as unknown)).toBe(2);
  expect(nc.variables.height!.attributes).toMatchObject({ standard_name: 'height', units: 'm', positive: 'up', axis: 'Z' });
  expect(nc.variables.air_temperature!.attributes.coordinates).toBe('height');
});
