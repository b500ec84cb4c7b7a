/**
 * A synced run past its expirationTime (its start plus FIELDCAST_SYNC_KEEP_DAYS) is EXPIRED for
 * every reader of the registry on the same clock, whether or not a sync pass has taken it out
 * (docs/decisions/0363-synced-runs-expire-on-the-clock.md): the model area lists it EXPIRED, the
 * weather served (the composite the tiles, datapoints and agronomy read) no longer reads its
 * store, and the synced products list neither its forecast nor its frames. A pass that then takes
 * it out changes none of these answers.
 */
import { join } from 'node:path';
import {
  createCatalog,
  forecastFrameId,
  loadWeatherSource,
  readSourceRegistry,
  type ReloadingSource,
  storesOf,
  SyncedProducts,
  syncedStorePaths,
} from '@fieldcast/weather';
import { readSyncedModels, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RUN = Date.UTC(2026, 11, 3, 0);
const PRODUCT = 'gfs-0p25.air-temperature';
const t = useArchive('served-expiry', (root) => {
  for (const s of [0, 1]) writeGfsStep(root, RUN, s);
});
const syncDir = () => join(t.data, 'sync');
const runStore = () => join(syncDir(), 'gfs-0p25', 'runs', '2026120300.zarr');
/** A poller's pass at `nowMs`: of RUN, or of the newest run published when `runMs` is null. */
const pass = (nowMs: number, runMs: number | null = RUN) =>
  syncRun(pollOptions(t, { ...(runMs === null ? {} : { runMs }), steps: '0-1', keepDays: 1, now: () => nowMs }));

/** What each reader of the sync's files answers at `nowMs`. */
async function readers(weather: ReloadingSource, products: SyncedProducts, nowMs: number) {
  await weather.reload();
  await products.refresh(nowMs);
  const [model] = await readSyncedModels(syncDir(), nowMs);
  const product = products.product(PRODUCT);
  const frameId = forecastFrameId({ name: PRODUCT }, RUN, RUN + HOUR);
  return {
    model: model!.runs.map((r) => [r.status, r.expirationMs, r.store]),
    servedPaths: (await syncedStorePaths(syncDir(), nowMs)).includes(runStore()),
    weather: storesOf(weather)!.locations.includes(runStore()),
    forecasts: product ? products.runs(product, -Infinity, Infinity, 10, 'desc').map((r) => [r.run.initMs, r.run.expirationMs]) : null,
    frame: (await products.find(frameId, nowMs))?.validMs ?? null,
  };
}

test('the weather served and the synced products end a run at its expirationTime, with the model area, though no pass took it out', async () => {
  expect(await pass(RUN + 4 * HOUR)).toMatchObject({ state: 'published' });
  let clock = RUN + DAY - 1;
  const weather = (await loadWeatherSource({ syncDir: syncDir(), now: () => clock, reloadMs: 3_600_000 })) as ReloadingSource;
  const products = new SyncedProducts(syncDir(), createCatalog().products());
  try {
    expect(await readers(weather, products, clock)).toEqual({
      model: [['COMPLETE', RUN + DAY, runStore()]],
      servedPaths: true,
      weather: true,
      forecasts: [[RUN, RUN + DAY]],
      frame: RUN + HOUR,
    });
    const version = products.version;

    // The sync is stopped: the registry still names the run when its expirationTime comes.
    clock = RUN + DAY;
    expect((await readSourceRegistry(join(syncDir(), 'gfs-0p25'), 'gfs-0p25')).runs.map((r) => Date.parse(r.run))).toEqual([RUN]);
    const expired = { model: [['EXPIRED', RUN + DAY, null]], servedPaths: false, weather: false, forecasts: null, frame: null };
    expect(await readers(weather, products, clock)).toEqual(expired);
    // Pages of frames kept under the version before are not served again.
    expect(products.version).not.toBe(version);

    // The next pass (upstream down) takes it out at the same expirationTime: every answer stays.
    t.server.inject('', { status: 503 }, 1000);
    clock = RUN + DAY + HOUR;
    await expect(pass(clock, null)).rejects.toThrow(/503/);
    expect((await readSourceRegistry(join(syncDir(), 'gfs-0p25'), 'gfs-0p25')).runs).toEqual([]);
    expect(await readers(weather, products, clock)).toEqual(expired);
  } finally {
    await products.close();
    await weather.close();
  }
});
