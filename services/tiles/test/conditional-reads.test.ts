import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, forecastBoundaryMs, frameId } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';
import { FunctionSource } from './function-source.js';

// A read that carries an ETag evaluates If-Match before anything else (RFC 9110 sections 13.1.1
// and 13.2.2): a header naming no current tag is 412 and serves nothing, so a client never takes
// another version than the one it named (docs/decisions/0504-reads-honour-if-match.md).

const weather = new FunctionSource({ air_temperature: (lon) => lon / 4 });
const NOW = Date.now();
const t = useTestFleet([tilesService], { weather, now: () => new Date(NOW) });
const app = () => t.fleet.app('tiles');
const temperature = createCatalog().product('air-temperature')!;
const frame = frameId(temperature, forecastBoundaryMs(NOW) - 2 * 3_600_000);

const style = {
  name: 'If-Match blue',
  description: '',
  layerName: 'air_temperature',
  colorizers: [{ defaultColor: '#000000', defaultMode: 'linear', stops: [{ value: 0, color: '#0000ff' }] }],
};

it('a style read with a stale If-Match is 412; with its tag or * it is the style', async () => {
  const created = await request(app()).post('/v2/products/air-temperature/styles').set('Authorization', t.alice.auth).send(style);
  expect(created.status).toBe(201);
  const path = `/v2/styles/${created.body.id}.json`;
  const read = (ifMatch: string) => request(app()).get(path).set('Authorization', t.alice.auth).set('If-Match', ifMatch);
  const stale = await read('"not-the-tag"');
  expect(stale.status).toBe(412);
  expect(stale.body).toMatchObject({ status: 412, id: 'precondition_failed' });
  expect((await read(created.headers.etag as string)).status).toBe(200);
  expect((await read('*')).status).toBe(200);
});

it('a tile read with a stale If-Match is 412, without the tile’s lifetime; with its tag it is the tile', async () => {
  const path = `/v2/frames/${frame}/tile/1/0/0.png`;
  const first = await request(app()).get(path).set('Authorization', t.alice.auth);
  expect(first.status).toBe(200);
  const stale = await request(app()).get(path).set('Authorization', t.alice.auth).set('If-Match', '"not-the-tag"');
  expect(stale.status).toBe(412);
  expect(stale.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(stale.headers['cache-control']).not.toMatch(/immutable|max-age/);
  const current = await request(app())
    .get(path)
    .set('Authorization', t.alice.auth)
    .set('If-Match', first.headers.etag as string);
  expect(current.status).toBe(200);
  expect(current.headers['content-type']).toBe('image/png');
});

// A 304 carries the Vary its 200 would have carried (RFC 9110 section 15.4.5), so a cache that
// freshens its stored answer with the 304's fields (RFC 9111 section 4.3.4) keeps selecting by
// Accept-Encoding and never serves a gzip body to a client that cannot read it.
const body = {
  name: 'Vary rain',
  description: 'blue',
  layerName: 'precipitation_rate',
  colorizers: [{ defaultColor: '#000000', defaultMode: 'linear', stops: [{ value: 0, color: '#0000ff' }] }],
};

it('a style read answered 304 says the same Vary as its 200', async () => {
  const created = await request(app()).post('/v2/products/precipitation-rate/styles').set('Authorization', t.alice.auth).send(body);
  expect(created.status).toBe(201);
  const path = `/v2/styles/${created.body.id}.json`;
  const full = await request(app()).get(path).set('Authorization', t.alice.auth).set('Accept-Encoding', 'gzip');
  expect(full.status).toBe(200);
  const notModified = await request(app())
    .get(path)
    .set('Authorization', t.alice.auth)
    .set('Accept-Encoding', 'gzip')
    .set('If-None-Match', full.headers.etag as string);
  expect(notModified.status).toBe(304);
  expect(notModified.headers.vary).toBe(full.headers.vary);
});
