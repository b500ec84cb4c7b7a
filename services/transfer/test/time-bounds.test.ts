import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { type GridSource, type GridWindow, SyntheticSource } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { datasetsOfDay, dayStart, servedProducts } from '../src/domain/datasets.js';
import { produceDatasetFile } from '../src/domain/produce.js';
import { binary, pathOf, PRODUCT, testCatalog, testTransferService } from './helpers.js';
import { readNetcdf4 } from './netcdf-reader.js';

/*
 * A NetCDF download of hourly means carries the time cell each mean covers as CF time bounds
 * (CF 1.11 §7.1; docs/decisions/0370-daily-netcdf-time-bounds.md), the cell the reads that made
 * the file state (docs/decisions/0379-time-cells-of-mean-rates.md): on a synced run the hour ending
 * at each stamp, whatever a variable list says.
 */
const H = 3_600_000;
const hours = (ms: number) => ms / H;

describe("the reads' cell, not the variable list's", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'transfer-time-bounds-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('bounds the shortwave by the cell its reads state where the source describes another', async () => {
    // The synthetic world's variable list says its shortwave is the hour centred on the stamp; its reads here say the hour ending at it.
    const world = new SyntheticSource({ now: () => Date.UTC(2026, 5, 10) });
    const ending = (w: GridWindow): GridWindow =>
      w.variable === 'surface_downwelling_shortwave_flux_in_air' ? { ...w, timeCell: [-H, 0] } : w;
    const source = new Proxy(world, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (key === 'subgrid')
          return async (...args: Parameters<SyntheticSource['subgrid']>) => (await target.subgrid(...args)).map(ending);
        if (key === 'window') return async (...args: Parameters<GridSource['window']>) => ending(await target.window(...args));
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as GridSource;
    expect(source.variables().find((v) => v.id === 'surface_downwelling_shortwave_flux_in_air')?.timeCell).toEqual([-H / 2, H / 2]);
    const product = servedProducts(testCatalog(), source).find((p) => p.def.name === PRODUCT.shortwave)!;
    const dataset = datasetsOfDay(product, dayStart('2024-06-01'), source, Date.UTC(2026, 5, 10))[0]!;
    const path = join(dir, dataset.name);
    await produceDatasetFile(dataset, source, path);
    const nc = await readNetcdf4(readFileSync(path));
    expect([...nc.read('time_bnds')]).toEqual(dataset.times.flatMap((t) => [hours(t - H), hours(t)]));
  });
});

describe('a synced run', () => {
  const RUN = Date.UTC(2026, 11, 3, 0);
  const clock = { ms: RUN + 6 * H };
  const options: TestFleetOptions = { now: () => new Date(clock.ms), catalog: testCatalog() };
  let run: OneSyncedRun;

  beforeAll(async () => {
    run = await oneSyncedRun(RUN, { archived: [0, 1, 2, 3], syncedAtMs: RUN + 5 * H, now: () => clock.ms, synthetic: false });
    options.weather = run.weather;
  }, 60_000);
  afterAll(() => run?.close());

  const t = useTestFleet([testTransferService()], options);
  const app = () => t.fleet.app('transfer');

  it.each(['shortwave-radiation-hourly-netcdf', 'precipitation-rate-hourly-netcdf'])(
    'bounds each mean rate of gfs-0p25.%s by the hour ending at its stamp',
    async (base) => {
      const list = await request(app()).get(`/products/gfs-0p25.${base}/datasets?date=2026-12-03`).set('Authorization', t.alice.auth);
      expect(list.status).toBe(200);
      const d = list.body[0] as { downloadUrl: string; validTimes: string[] };
      const res = await request(app()).get(pathOf(d.downloadUrl)).buffer(true).parse(binary);
      expect(res.status).toBe(200);
      const nc = await readNetcdf4(res.body as Buffer);
      const stamps = [...nc.read('time')];
      expect(stamps).toEqual(d.validTimes.map((v) => hours(Date.parse(v))));
      expect(stamps.length).toBeGreaterThan(0);
      expect(nc.variables.time!.attributes.bounds).toBe('time_bnds');
      expect([...nc.read('time_bnds')]).toEqual(stamps.flatMap((s) => [s - 1, s]));
    },
  );

  it('gives its instants none', async () => {
    const list = await request(app())
      .get(`/products/gfs-0p25.${PRODUCT.hourly}/datasets?date=2026-12-03`)
      .set('Authorization', t.alice.auth);
    const d = list.body[0] as { downloadUrl: string };
    const nc = await readNetcdf4((await request(app()).get(pathOf(d.downloadUrl)).buffer(true).parse(binary)).body as Buffer);
    expect(nc.dims.map((x) => x.name)).toEqual(['time', 'lat', 'lon', 'nv']);
    expect(nc.variables.time_bnds).toBeUndefined();
  });
});
