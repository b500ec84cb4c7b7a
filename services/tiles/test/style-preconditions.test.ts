import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, defaultStyles } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';

// A style is replaced whole: its reads carry a strong ETag and its replace and delete honour
// If-Match, so one editor does not silently undo another's change (RFC 9110 section 13.1.1;
// docs/decisions/0461-owned-resources-honour-if-match.md).

const t = useTestFleet([tilesService]);
const app = () => t.fleet.app('tiles');
const temperatureDefault = defaultStyles(createCatalog().product('air-temperature')!)[0]!;

const body = (name: string, description = 'blue to red') => ({
  name,
  description,
  layerName: 'precipitation_rate',
  colorizers: [{ defaultColor: '#000000', defaultMode: 'linear', stops: [{ value: 0, color: '#0000ff' }] }],
});

const create = (name: string) =>
  request(app()).post('/v2/products/precipitation-rate/styles').set('Authorization', t.alice.auth).send(body(name));
const read = (id: string) => request(app()).get(`/v2/styles/${id}.json`).set('Authorization', t.alice.auth);
const replace = (id: string, b: object, ifMatch: string) =>
  request(app()).put(`/v2/styles/${id}.json`).set('Authorization', t.alice.auth).set('If-Match', ifMatch).send(b);

it('a style’s create, read and replace carry its ETag; a stale If-Match is 412 and changes nothing; the current one replaces', async () => {
  const created = await create('Tagged rain');
  expect(created.status).toBe(201);
  const tag = (await read(created.body.id)).headers.etag as string;
  expect(tag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
  expect(created.headers.etag).toBe(tag);
  expect((await read(created.body.id).set('If-None-Match', tag)).status).toBe(304);
  const first = await replace(created.body.id, body('Tagged rain', 'Ann’s'), tag);
  expect(first.status).toBe(200);
  expect(first.headers.etag).not.toBe(tag);
  const second = await replace(created.body.id, body('Tagged rain', 'Bob’s'), tag);
  expect(second.status).toBe(412);
  expect(second.body).toMatchObject({ status: 412, id: 'precondition_failed' });
  expect((await read(created.body.id)).body.description).toBe('Ann’s');
  expect((await read(created.body.id)).headers.etag).toBe(first.headers.etag);
});

it('two replaces of a style at once naming the same tag: exactly one succeeds', async () => {
  const created = await create('Raced rain');
  const tag = created.headers.etag as string;
  const answers = await Promise.all(['Ann', 'Bob'].map((who) => replace(created.body.id, body('Raced rain', who), tag)));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
});

it('a style’s delete with a stale If-Match is 412 and keeps it; a default style is tagged and still 403 to change', async () => {
  const created = await create('Kept rain');
  const stale = created.headers.etag as string;
  expect((await replace(created.body.id, body('Kept rain', 'changed'), '*')).status).toBe(200);
  const refused = await request(app())
    .delete(`/v2/styles/${created.body.id}.json`)
    .set('Authorization', t.alice.auth)
    .set('If-Match', stale);
  expect(refused.status).toBe(412);
  expect((await read(created.body.id)).status).toBe(200);
  const builtIn = await read(temperatureDefault.id);
  expect(builtIn.headers.etag).toMatch(/^"/);
  expect((await replace(temperatureDefault.id, body('x'), builtIn.headers.etag as string)).status).toBe(403);
});

it('a replace or delete whose If-None-Match names the current version, or is *, is 412 and changes nothing (RFC 9110 section 13.1.2)', async () => {
  const created = await create('Guarded rain');
  const tag = created.headers.etag as string;
  for (const ifNoneMatch of ['*', tag, `"other", W/${tag}`]) {
    const replaced = await request(app())
      .put(`/v2/styles/${created.body.id}.json`)
      .set('Authorization', t.alice.auth)
      .set('If-None-Match', ifNoneMatch)
      .send(body('Guarded rain', 'changed'));
    expect(replaced.status).toBe(412);
    expect(replaced.body).toMatchObject({ status: 412, id: 'precondition_failed' });
    const removed = await request(app())
      .delete(`/v2/styles/${created.body.id}.json`)
      .set('Authorization', t.alice.auth)
      .set('If-None-Match', ifNoneMatch);
    expect(removed.status).toBe(412);
  }
  const kept = await read(created.body.id);
  expect(kept.body.description).toBe('blue to red');
  expect(kept.headers.etag).toBe(tag);
  // Naming only other versions, the change is made.
  const changed = await request(app())
    .put(`/v2/styles/${created.body.id}.json`)
    .set('Authorization', t.alice.auth)
    .set('If-None-Match', '"other"')
    .send(body('Guarded rain', 'changed'));
  expect(changed.status).toBe(200);
  expect(changed.body.description).toBe('changed');
});
