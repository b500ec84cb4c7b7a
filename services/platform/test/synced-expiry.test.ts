import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { syncRun } from '@fieldcast/sync';
import { forecastFrameId, type GridSource, loadWeatherSource, productRunId, readSourceRegistry } from '@fieldcast/weather';
import { type ArchiveServer, serveArchive } from '../../../packages/sync/test/archive-server.js';
import { writeGfsStep } from '../../../packages/sync/test/runs.js';
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

let archive: string;
let data: string;
let server: ArchiveServer;
let weather: GridSource;
const options: TestFleetOptions = { now };
const syncDir = () => join(data, 'sync');

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'platform-synced-expiry-archive-'));
  data = mkdtempSync(join(tmpdir(), 'platform-synced-expiry-data-'));
  for (const s of [0, 1]) writeGfsStep(archive, RUN, s);
  server = await serveArchive(archive);
  const published = await syncRun({
    source: 'gfs-0p25',
    baseUrl: server.baseUrl,
    syncDir: syncDir(),
    runMs: RUN,
    steps: '0-1',
    keepDays: 1,
    now: () => RUN + 4 * H,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
  });
  expect(published.state).toBe('published');
  weather = await loadWeatherSource({ syncDir: syncDir(), now: () => clock.ms, reloadMs: 3_600_000 });
  options.weather = weather;
});
afterAll(async () => {
  await (weather as { close?: () => Promise<void> } | undefined)?.close?.();
  await server?.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

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
