import request from 'supertest';
import { type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';

// Lost updates: a field is replaced whole, so two people editing it would each overwrite the
// other. Its reads carry a strong ETag and its replace and delete honour If-Match (RFC 9110
// sections 8.8.3 and 13.1.1; docs/decisions/0461-owned-resources-honour-if-match.md).

const square = (lon: number, lat: number, size = 0.01) => [
  [lon, lat],
  [lon + size, lat],
  [lon + size, lat + size],
  [lon, lat + size],
  [lon, lat],
];
const fieldBody = (description = 'North 40', lon = -93.5) => ({
  description,
  type: 'GeometryCollection',
  geometries: [{ type: 'Polygon', coordinates: [square(lon, 42.0)] }],
});

const t = useTestFleet([agricultureService]);
const app = () => t.fleet.app('agriculture');
const STRONG = /^"[A-Za-z0-9_-]{16,}"$/;

async function create(account: TestAccount = t.alice) {
  const res = await request(app()).post('/fields').set('Authorization', account.auth).send(fieldBody());
  expect(res.status).toBe(201);
  return res;
}
const read = (id: string, account: TestAccount = t.alice) => request(app()).get(`/fields/${id}`).set('Authorization', account.auth);
const replace = (id: string, body: object, ifMatch?: string, account: TestAccount = t.alice) => {
  const req = request(app()).put(`/fields/${id}`).set('Authorization', account.auth);
  return (ifMatch === undefined ? req : req.set('If-Match', ifMatch)).send(body);
};
const remove = (id: string, ifMatch?: string) => {
  const req = request(app()).delete(`/fields/${id}`).set('Authorization', t.alice.auth);
  return ifMatch === undefined ? req : req.set('If-Match', ifMatch);
};
async function events(): Promise<string[]> {
  const rows = await t.fleet.db.knex.withSchema('agriculture').table('outbox').orderBy('seq').select('event');
  return rows.map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event).type as string);
}

describe('fields: entity tags (RFC 9110 section 8.8.3)', () => {
  it('a read carries a strong ETag, the create answer the same one, and If-None-Match naming it is 304', async () => {
    const created = await create();
    const got = await read(created.body.id);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toMatch(STRONG);
    expect(created.headers.etag).toBe(got.headers.etag);
    const again = await read(created.body.id).set('If-None-Match', got.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(got.headers.etag);
    expect(again.text).toBe('');
  });

  it('a create sent again under its Idempotency-Key carries the first answer’s ETag, which a replace may name', async () => {
    const send = () =>
      request(app()).post('/fields').set('Authorization', t.alice.auth).set('Idempotency-Key', '"retried-create"').send(fieldBody());
    const created = await send();
    expect(created.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toMatch(STRONG);
    expect(again.headers.etag).toBe(created.headers.etag);
    const replaced = await replace(created.body.id, fieldBody('North 40, fenced'), again.headers.etag as string);
    expect(replaced.status).toBe(200);
  });

  it('the tag changes when the field does, and only then', async () => {
    const created = await create();
    const first = (await read(created.body.id)).headers.etag as string;
    expect((await read(created.body.id)).headers.etag).toBe(first);
    const put = await replace(created.body.id, fieldBody('South 40'));
    expect(put.status).toBe(200);
    expect(put.headers.etag).toMatch(STRONG);
    expect(put.headers.etag).not.toBe(first);
    expect((await read(created.body.id)).headers.etag).toBe(put.headers.etag);
  });
});

describe('fields: If-Match on replace and delete (RFC 9110 section 13.1.1)', () => {
  it('a replace naming a tag that is no longer current is 412 precondition_failed and changes nothing', async () => {
    const created = await create();
    const stale = created.headers.etag as string;
    expect((await replace(created.body.id, fieldBody('Edited by Ann'), stale)).status).toBe(200);
    const before = await events();
    const res = await replace(created.body.id, fieldBody('Edited by Bob', 10), stale);
    expect(res.status).toBe(412);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 412, id: 'precondition_failed' });
    expect((await read(created.body.id)).body.description).toBe('Edited by Ann');
    expect(await events()).toEqual(before);
  });

  it('a replace naming the current tag is 200 with the new tag; * matches any field; no If-Match replaces as before', async () => {
    const created = await create();
    const current = (await read(created.body.id)).headers.etag as string;
    const res = await replace(created.body.id, fieldBody('Current'), `"other", ${current}`);
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('Current');
    expect(res.headers.etag).not.toBe(current);
    expect((await replace(created.body.id, fieldBody('Any'), '*')).status).toBe(200);
    expect((await replace(created.body.id, fieldBody('Unconditional'))).status).toBe(200);
    // a weak tag never matches by strong comparison
    const now = (await read(created.body.id)).headers.etag as string;
    expect((await replace(created.body.id, fieldBody('Weak'), `W/${now}`)).status).toBe(412);
  });

  it('two replaces at once naming the same tag: exactly one succeeds, the other is 412', async () => {
    const created = await create();
    const tag = created.headers.etag as string;
    const answers = await Promise.all([
      replace(created.body.id, fieldBody('Ann', -93.4), tag),
      replace(created.body.id, fieldBody('Bob', -93.3), tag),
      replace(created.body.id, fieldBody('Cy', -93.2), tag),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    const now = await read(created.body.id);
    expect(now.body.description).toBe(winner.body.description);
    expect(now.headers.etag).toBe(winner.headers.etag);
    expect((await events()).filter((e) => e === 'fieldcast.field.updated').length).toBeGreaterThanOrEqual(1);
  });

  it('a delete naming a stale tag is 412 and keeps the field; the current tag or * deletes it', async () => {
    const created = await create();
    const stale = created.headers.etag as string;
    const current = (await replace(created.body.id, fieldBody('Changed'))).headers.etag as string;
    const before = await events();
    expect((await remove(created.body.id, stale)).status).toBe(412);
    expect((await read(created.body.id)).status).toBe(200);
    expect(await events()).toEqual(before);
    expect((await remove(created.body.id, current)).status).toBe(200);
    const other = await create();
    expect((await remove(other.body.id, '*')).status).toBe(200);
  });

  it('another account’s field and an unknown one stay 404 whatever the condition', async () => {
    const created = await create();
    const tag = created.headers.etag as string;
    expect((await replace(created.body.id, fieldBody(), tag, t.bob)).status).toBe(404);
    expect((await replace(created.body.id, fieldBody(), '"stale"', t.bob)).status).toBe(404);
    expect((await replace('00000000-0000-4000-8000-000000000000', fieldBody(), '*')).status).toBe(404);
    expect((await read(created.body.id, t.bob).set('If-None-Match', tag)).status).toBe(404);
  });

  it('the document names If-Match and the 412 on replace and delete, and the ETag on the answers that carry it', async () => {
    const doc = (await request(app()).get('/openapi.json')).body;
    const item = doc.paths['/fields/{id}'];
    for (const method of ['put', 'delete']) {
      expect(item[method].parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toContain('header If-Match');
      expect(Object.keys(item[method].responses)).toContain('412');
    }
    expect(Object.keys(item.get.responses)).toContain('304');
    expect(item.get.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
    for (const answer of [item.get.responses['200'], item.put.responses['200'], doc.paths['/fields'].post.responses['201']])
      expect(Object.keys(answer.headers)).toContain('ETag');
  });
});
