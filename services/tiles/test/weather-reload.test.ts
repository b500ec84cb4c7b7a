import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, forecastBoundaryMs, frameId, ReloadingSource } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';
import { FunctionSource } from './function-source.js';

/*
 * A tile is drawn from the weather served now. Synced stores reload under the names they had (the
 * analysis appended in place, a run synced again with more steps: docs/decisions/0251-synced-stores-registry.md),
 * so the weather's id alone does not tell the weather before from the weather after; its version
 * does (weatherVersion), in the samples kept, the tiles kept and the ETag.
 */
const NOW = Date.now();
const HOUR = 3_600_000;
let offset = 0;
let stamp = 'before';
const functionSource = () => new FunctionSource({ air_temperature: (lon) => lon / 4 + offset });
let weather: ReloadingSource;
const options: TestFleetOptions = { now: () => new Date(NOW) };
// before the fleet starts (hooks run in order), which reads options.weather
beforeAll(async () => {
  options.weather = weather = await ReloadingSource.open({
    stamp: async () => stamp,
    load: async () => functionSource(),
    dropped: () => [],
  });
});
const t = useTestFleet([tilesService], options);
const frame = frameId(createCatalog().product('air-temperature')!, forecastBoundaryMs(NOW) - 2 * HOUR);

it('a tile asked again after the weather was reloaded under the same id is drawn again, under another ETag', async () => {
  const get = (etag?: string) => {
    const req = request(t.fleet.app('tiles')).get(`/v2/frames/${frame}/tile/2/1/1.png`).set('Authorization', t.alice.auth);
    return etag ? req.set('If-None-Match', etag) : req;
  };
  const before = await get();
  expect(before.status).toBe(200);
  const etag = before.headers.etag as string;
  expect((await get(etag)).status).toBe(304);
  offset = 20;
  stamp = 'after';
  expect(await weather.reload()).toBe(true);
  expect(weather.id).toBe('function');
  const after = await get(etag);
  expect(after.status).toBe(200);
  expect(after.headers.etag).not.toBe(etag);
  expect(Buffer.compare(after.body as Buffer, before.body as Buffer)).not.toBe(0);
});
