import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, defaultStyles, syncedProductsOf } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { DefaultStyles } from '../src/domain/styles.js';
import { tilesService } from '../src/definition.js';

/*
 * Style names are one name space, default styles included (docs/interface.md §4), and the synced
 * sources' products have default styles of their own, named `<source>.<style>` (0315), which a
 * process meets only when it first names such a product. Their names are held from the start,
 * whether or not a run of the source is synced yet (docs/decisions/0405-synced-default-style-names-held-from-the-start.md).
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const catalog = createCatalog();

const options: TestFleetOptions = { now: () => new Date(RUN + 6 * H) };
let run: OneSyncedRun;
beforeAll(async () => {
  run = await oneSyncedRun(RUN, { now: () => RUN + 6 * H });
  options.weather = run.weather;
});
afterAll(() => run?.close());

const t = useTestFleet([tilesService], options);
const app = () => t.fleet.app('tiles');

const warm = (name: string) => ({
  name,
  description: 'warm red',
  layerName: 'air_temperature',
  colorizers: [{ defaultColor: '#000000', defaultMode: 'linear', stops: [{ value: 20, color: '#ff0000' }] }],
});

it('refuses the name of a synced product’s default style before the area has met that product, so one name never names two styles', async () => {
  const made = await request(app())
    .post('/v2/products/air-temperature/styles')
    .set('Authorization', t.alice.auth)
    .send(warm('gfs-0p25.air-temperature-default'));
  expect([made.status, made.body.id]).toEqual([409, 'style_name_taken']);
  expect(made.body.message).toContain('default');
  // the default holds the name, and the account holds no style of it
  const synced = await request(app()).get('/v2/products/gfs-0p25.air-temperature/styles.json').set('Authorization', t.alice.auth);
  expect(synced.status).toBe(200);
  expect(synced.body.map((s: { name: string; isDefault: boolean }) => [s.name, s.isDefault])).toEqual([
    ['gfs-0p25.air-temperature-default', true],
  ]);
  const own = await request(app()).get('/v2/products/air-temperature/styles.json').set('Authorization', t.alice.auth);
  expect(own.body.filter((s: { isDefault: boolean }) => !s.isDefault)).toEqual([]);
});

it('holds the names of the default styles of a source no run of which is synced yet, in any case', async () => {
  const made = await request(app())
    .post('/v2/products/air-temperature/styles')
    .set('Authorization', t.alice.auth)
    .send(warm('ECMWF-IFS-0P25.Air-Temperature-Default'));
  expect([made.status, made.body.id]).toEqual([409, 'style_name_taken']);
  const mine = await request(app()).post('/v2/products/air-temperature/styles').set('Authorization', t.alice.auth).send(warm('warm'));
  expect(mine.status).toBe(201);
  const renamed = await request(app())
    .put(`/v2/styles/${mine.body.id}.json`)
    .set('Authorization', t.alice.auth)
    .send(warm('ecmwf-ifs-0p25.air-temperature-default'));
  expect([renamed.status, renamed.body.id]).toEqual([409, 'style_name_taken']);
});

it('holds from its start every default style name a synced product turns out to have', async () => {
  const synced = syncedProductsOf(run.syncDir, catalog.products());
  await synced.refresh(RUN + 6 * H);
  const names = synced.products().flatMap((p) => defaultStyles(p.def).map((s) => s.name));
  expect(names).toContain('gfs-0p25.air-temperature-default');
  const fresh = new DefaultStyles(catalog);
  expect(names.filter((name) => !fresh.holdsName(name))).toEqual([]);
});
