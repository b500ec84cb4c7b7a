import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { tilesService } from '../src/definition.js';

// A 304 carries the Vary its 200 would have carried (RFC 9110 section 15.4.5), so a cache that
// freshens its stored answer with the 304's fields (RFC 9111 section 4.3.4) keeps selecting by
// Accept-Encoding and never serves a gzip body to a client that cannot read it.

const t = useTestFleet([tilesService]);
const app = () => t.fleet.app('tiles');

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
