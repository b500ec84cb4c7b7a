import { join } from 'node:path';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { forecastFrameId, productRunId, readSourceRegistry } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { platformService } from '../src/definition.js';
import { clock, get, H, now } from './helpers.js';

/*
 * A synced product's forecast is served until its run's expirationTime (its start plus
 * FIELDCAST_SYNC_KEEP_DAYS) on the request's clock, whatever the sync process is doing: with no
 * pass since, the run leaves the product's forecasts and frames at that instant, as the model area
 * lists it EXPIRED then (docs/decisions/0363-synced-runs-expire-on-the-clock.md), and a source
 * whose every run has expired has no products, as once a pass took them out
 * (docs/decisions/0315-synced-sources-as-products.md).
 */
const DAY = 24 * H;
const RUN = Date.UTC(2026, 11, 3, 0);
const PRODUCT = 'gfs-0p25.air-temperature';
const FORECAST = productRunId({ name: PRODUCT }, RUN);
const FRAME = forecastFrameId({ name: PRODUCT }, RUN, RUN + H);

const options: TestFleetOptions = { now };
let run: OneSyncedRun;
const syncDir = () => run.syncDir;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, { keepDays: 1, now: () => clock.ms });
  options.weather = run.weather;
});
afterAll(() => run?.close());

const t = useTestFleet([platformService], options);

it("lists the run's forecast and frames before its expirationTime", async () => {
  clock.ms = RUN + DAY - 1;
  const forecasts = await get(t, t.alice, `/products/${PRODUCT}/forecasts`);
  expect(forecasts.body.map((f: { id: string; expirationTime: string }) => [f.id, f.expirationTime])).toEqual([
    [FORECAST, '2026-12-04T00:00:00Z'],
  ]);
  expect((await get(t, t.alice, `/forecasts/${FORECAST}/frames`)).body.map((f: { id: string }) => f.id)).toContain(FRAME);
  expect((await get(t, t.alice, `/frames/${FRAME}`)).status).toBe(200);
});

it('serves none of it from its expirationTime though no sync pass took it out of the registry', async () => {
  clock.ms = RUN + DAY;
  expect((await readSourceRegistry(join(syncDir(), 'gfs-0p25'), 'gfs-0p25')).runs.map((r) => Date.parse(r.run))).toEqual([RUN]);
  expect((await get(t, t.alice, '/products?source=gfs-0p25')).body).toEqual([]);
  expect((await get(t, t.alice, `/products/${PRODUCT}`)).status).toBe(404);
  expect((await get(t, t.alice, `/forecasts/${FORECAST}`)).status).toBe(404);
  expect((await get(t, t.alice, `/frames/${FRAME}`)).status).toBe(404);
});
