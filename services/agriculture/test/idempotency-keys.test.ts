import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';

/** A field created again under its Idempotency-Key (docs/interface.md §1): one field, one event. */
const t = useTestFleet([agricultureService]);
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const fieldBody = (description: string) => ({
  description,
  type: 'GeometryCollection',
  geometries: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [-93.5, 42],
          [-93.49, 42],
          [-93.49, 42.01],
          [-93.5, 42.01],
          [-93.5, 42],
        ],
      ],
    },
  ],
});
const create = (description: string, key: string, path = '/fields') =>
  request(t.fleet.app('agriculture'))
    .post(path)
    .set('Authorization', t.alice.auth)
    .set('Accept', JSON_V1)
    .set('Idempotency-Key', key)
    .send(fieldBody(description));
const count = async (table: string) => Number((await t.fleet.db.knex.withSchema('agriculture').table(table).count({ n: '*' }).first())?.n);

describe('POST /fields under an Idempotency-Key', () => {
  it('answers a retry with the first answer and creates one field and one event; another body under the key is 422', async () => {
    const first = await create('North 40', '"field-retry-1"');
    expect(first.status).toBe(201);
    const again = await create('North 40', '"field-retry-1"');
    expect([again.status, again.headers['idempotent-replayed'], again.headers.location]).toEqual([201, 'true', first.headers.location]);
    expect(again.body).toEqual(first.body);
    expect(await count('fields')).toBe(1);
    expect(await count('outbox')).toBe(1);
    const other = await create('South 40', '"field-retry-1"');
    expect([other.status, other.body.id]).toEqual([422, 'idempotency_key_reused']);
    expect(await count('fields')).toBe(1);
  });

  it('takes /f%69elds and /fields, one resource (RFC 3986 section 6.2.2.2), as the same request under one key', async () => {
    const before = await count('fields');
    const first = await create('East 40', '"field-retry-encoded"', '/f%69elds');
    expect(first.status).toBe(201);
    const again = await create('East 40', '"field-retry-encoded"');
    expect([again.status, again.headers['idempotent-replayed'], again.headers.location]).toEqual([201, 'true', first.headers.location]);
    expect(await count('fields')).toBe(before + 1);
  });

  it('documents the header on the create in /openapi.json', async () => {
    const doc = (await request(t.fleet.app('agriculture')).get('/openapi.json')).body;
    expect(doc.paths['/fields'].post.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
  });
});
