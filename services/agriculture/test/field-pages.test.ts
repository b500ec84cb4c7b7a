import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';

/* GET /fields is bounded and an account's fields are capped (docs/decisions/0061-bounded-lists.md); the cap is 3 here. */
const t = useTestFleet([agricultureService], { limits: { ownedPerKind: 3 } });
const app = () => t.fleet.app('agriculture');
const square = (lon: number) => [
  [lon, 42],
  [lon + 0.01, 42],
  [lon + 0.01, 42.01],
  [lon, 42.01],
  [lon, 42],
];
const create = (auth: string, n: number) =>
  request(app())
    .post('/fields')
    .set('Authorization', auth)
    .send({ description: `f${n}`, type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [square(-93.5 + n * 0.02)] }] });
const countFields = async () => Number((await t.fleet.db.knex.withSchema('agriculture').table('fields').count({ n: '*' }).first())?.n);

describe('GET /fields pages and the cap of fields per account', () => {
  it('pages with limit and after, the Link header naming the next page, the body the spec’s array', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await create(t.alice.auth, n)).body.id);
    await create(t.bob.auth, 9);
    const first = await request(app()).get('/fields?limit=2').set('Authorization', t.alice.auth);
    expect(first.status).toBe(200);
    expect(first.body.map((f: { id: string; description: string }) => [f.id, f.description])).toEqual([
      [ids[0], 'f1'],
      [ids[1], 'f2'],
    ]);
    expect(first.headers.link).toBe(`</fields?limit=2&after=${ids[1]}>; rel="next"`);
    const next = /^<([^>]+)>/.exec(first.headers.link ?? '')![1]!;
    const second = await request(app()).get(next).set('Authorization', t.alice.auth);
    expect(second.body.map((f: { id: string }) => f.id)).toEqual([ids[2]]);
    expect(second.headers.link).toBeUndefined();
    const all = await request(app()).get('/fields').set('Authorization', t.alice.auth);
    expect(all.body).toHaveLength(3);
    expect(all.headers.link).toBeUndefined();
  });

  it('a bad limit or after is 400; another account’s field is no cursor', async () => {
    const bobs = (await create(t.bob.auth, 1)).body.id;
    for (const [query, id] of [
      ['limit=1001', 'invalid_parameter'],
      ['limit=0', 'invalid_parameter'],
      ['after=123', 'invalid_parameter'],
      [`after=${bobs}`, 'unknown_cursor'],
    ]) {
      const res = await request(app()).get(`/fields?${query}`).set('Authorization', t.alice.auth);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id });
    }
  });

  it('an after given twice is told so, though both are UUIDs', async () => {
    const id = (await create(t.alice.auth, 1)).body.id;
    const res = await request(app()).get(`/fields?after=${id}&after=${id}`).set('Authorization', t.alice.auth);
    expect([res.status, res.body.errors]).toEqual([
      400,
      [{ path: 'after', message: 'after must be given once, as the id of an item of the list (a UUID)' }],
    ]);
  });

  it('a created field’s Location (RFC 9110 section 10.2.2) reads it back', async () => {
    const made = await create(t.alice.auth, 1);
    expect([made.status, made.headers.location]).toEqual([201, `/fields/${made.body.id}`]);
    const read = await request(app()).get(made.headers.location!).set('Authorization', t.alice.auth);
    expect([read.status, read.body.id]).toEqual([200, made.body.id]);
  });

  it('a field beyond the account’s cap is 422 too_many_resources and stores nothing', async () => {
    for (const n of [1, 2, 3]) expect((await create(t.alice.auth, n)).status).toBe(201);
    const refused = await create(t.alice.auth, 4);
    expect(refused.status).toBe(422);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ id: 'too_many_resources', message: expect.stringContaining('3 fields') });
    expect(await countFields()).toBe(3);
    const outbox = Number((await t.fleet.db.knex.withSchema('agriculture').table('outbox').count({ n: '*' }).first())?.n);
    expect(outbox).toBe(3);
    expect((await create(t.bob.auth, 1)).status).toBe(201);
  });

  it('creates at once cannot pass the cap together (on PostgreSQL too)', async () => {
    const statuses = (await Promise.all([1, 2, 3, 4, 5, 6].map((n) => create(t.alice.auth, n)))).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422]);
    expect(await countFields()).toBe(3);
  });
});
