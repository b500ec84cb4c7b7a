import { join } from 'node:path';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { readSyncedModels, syncedModelDef, syncRun } from '@fieldcast/sync';
import { forecastId, readSourceRegistry } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { modelService } from '../src/definition.js';
import { SyncedRegistry } from '../src/synced-registry.js';
import { get, HOUR, TestClock } from './helpers.js';

/*
 * A synced run is served until its expirationTime (its start plus FIELDCAST_SYNC_KEEP_DAYS,
 * docs/decisions/0255-synced-runs-as-models.md) whatever the sync process is doing: with no pass
 * since (the sync stopped, or its source failing before it reaches the registry), the model area
 * lists it EXPIRED from that instant and serves none of its values
 * (docs/decisions/0363-synced-runs-expire-on-the-clock.md).
 */
const DAY = 24 * HOUR;
const RUN = Date.UTC(2026, 11, 3, 0);
const MODEL = syncedModelDef('gfs-0p25');
const RUN_ID = forecastId(MODEL, RUN);
const iso = (ms: number) => new Date(ms).toISOString();

const clock = new TestClock(RUN + 4 * HOUR);
const options: TestFleetOptions = { now: clock.now };
let run: OneSyncedRun;
const syncDir = () => run.syncDir;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, { keepDays: 1 });
  options.weather = run.weather;
});
afterAll(() => run?.close());

const t = useTestFleet([modelService], options);
const app = () => t.fleet.app('model');
const series = `/forecasts/${RUN_ID}/variables/temperature/timeseries/45.6/10.3`;

it('lists a run COMPLETE before its expirationTime and serves its values', async () => {
  clock.set(RUN + DAY - HOUR);
  const list = await get(app(), t.alice, '/models/gfs-0p25/forecasts');
  expect(list.body.map((r: { status: string; expirationTime: string }) => [r.status, r.expirationTime])).toEqual([
    ['COMPLETE', iso(RUN + DAY)],
  ]);
  expect((await get(app(), t.alice, series)).status).toBe(200);
});

it('lists a run EXPIRED from its expirationTime though no sync pass took it out of the registry, and serves none of its values', async () => {
  clock.set(RUN + DAY);
  // No pass since: the registry still names the run as served.
  expect((await readSourceRegistry(join(syncDir(), 'gfs-0p25'), 'gfs-0p25')).runs.map((r) => r.run)).toEqual([iso(RUN)]);
  const list = await get(app(), t.alice, '/models/gfs-0p25/forecasts');
  expect(list.body.map((r: { id: string; status: string; expirationTime: string }) => [r.id, r.status, r.expirationTime])).toEqual([
    [RUN_ID, 'EXPIRED', iso(RUN + DAY)],
  ]);
  expect((await get(app(), t.alice, `/forecasts/${RUN_ID}`)).body).toMatchObject({ status: 'EXPIRED', expirationTime: iso(RUN + DAY) });
  const values = await get(app(), t.alice, series);
  expect([values.status, values.body.id]).toEqual([404, 'forecast_values_does_not_exist']);
  const latest = await get(app(), t.alice, '/models/gfs-0p25/latest-forecast/timeseries/45.6/10.3');
  expect([latest.status, latest.body.id]).toEqual([404, 'forecast_does_not_exist']);
});

it('announces the expiry as the sync does when it takes the run out: COMPLETE, then EXPIRED, once', async () => {
  const registry = new SyncedRegistry(t.fleet.db.knex, { add: async () => undefined } as never, []);
  await registry.register(syncDir(), RUN + DAY);
  const statuses = async () =>
    (await t.fleet.db.knex.withSchema('model').table('synced_run_statuses').select('status').orderBy('status')).map(
      (r: { status: string }) => r.status,
    );
  expect(await statuses()).toEqual(['COMPLETE', 'EXPIRED', 'INCOMPLETE', 'INITIALIZING']);
  // The sync's next pass (upstream down) takes it out at the same expirationTime: the same run, the same record, nothing new to announce.
  run.server.inject('', { status: 503 }, 1000);
  await syncRun({
    source: 'gfs-0p25',
    baseUrl: run.server.baseUrl,
    syncDir: syncDir(),
    steps: '0-1',
    keepDays: 1,
    now: () => RUN + DAY + 2 * HOUR,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
  }).catch((error: unknown) => expect(String(error)).toMatch(/503/));
  expect((await readSourceRegistry(join(syncDir(), 'gfs-0p25'), 'gfs-0p25')).runs).toEqual([]);
  const [model] = await readSyncedModels(syncDir(), RUN + DAY + 2 * HOUR);
  expect(model!.runs.map((r) => [r.initMs, r.status, r.expirationMs])).toEqual([[RUN, 'EXPIRED', RUN + DAY]]);
  expect((await registry.register(syncDir(), RUN + DAY + 2 * HOUR)).transitions).toBe(0);
  expect(await statuses()).toEqual(['COMPLETE', 'EXPIRED', 'INCOMPLETE', 'INITIALIZING']);
});
