import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, forecastBoundaryMs, frameId, loadWeatherSource } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';

/*
 * Where the weather served takes synced stores, a synced source's analysis takes a run's first
 * hours once the run is whole, hours after they passed: a catalog product's recent frames may
 * still change, so they are revalidated rather than kept a year
 * (docs/decisions/0497-recent-frames-revalidated-while-synced-analyses-grow.md).
 */
const NOW = Date.now();
const HOUR = 3_600_000;
const options: TestFleetOptions = { now: () => new Date(NOW) };
// before the fleet starts (hooks run in order), which reads options.weather
beforeAll(async () => {
  options.weather = await loadWeatherSource({
    syncDir: mkdtempSync(join(tmpdir(), 'fieldcast-sync-')),
    now: () => NOW,
    reloadMs: 3_600_000,
  });
});
afterAll(async () => {
  await (options.weather as { close(): Promise<void> } | undefined)?.close();
});
const t = useTestFleet([tilesService], options);
const temperature = createCatalog().product('air-temperature')!;
const cacheControl = async (hoursAgo: number) =>
  (
    await request(t.fleet.app('tiles'))
      .get(`/v2/frames/${frameId(temperature, forecastBoundaryMs(NOW) - hoursAgo * HOUR)}/tile/0/0/0.png`)
      .set('Authorization', t.alice.auth)
  ).headers['cache-control'];

it('a frame of the last day is revalidated, an older one kept a year, with a default style', async () => {
  expect(await cacheControl(2)).toBe('private, max-age=300');
  expect(await cacheControl(23)).toBe('private, max-age=300');
  expect(await cacheControl(25)).toBe('private, max-age=31536000, immutable');
});
