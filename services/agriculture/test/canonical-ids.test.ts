import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import type { FieldRecord } from '../src/domain/fields.js';
import { agricultureService } from '../src/definition.js';
import { FieldRecordCache } from '../src/field-record-cache.js';

const t = useTestFleet([agricultureService]);
const app = () => t.fleet.app('agriculture');
const field = (description: string, lon = -93.5) => ({
  description,
  type: 'GeometryCollection',
  geometries: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [lon, 42],
          [lon + 0.01, 42],
          [lon + 0.01, 42.01],
          [lon, 42.01],
          [lon, 42],
        ],
      ],
    },
  ],
});

describe('ids in upper case name the same field, and answers give the canonical lower case (RFC 9562 section 4)', () => {
  it('a PUT and a DELETE under an upper-case id are seen by reads in lower case: no stale cache', async () => {
    const created = await request(app()).post('/fields').set('Authorization', t.alice.auth).send(field('before'));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const upper = id.toUpperCase();
    // A read in lower case puts the field in the cache.
    expect((await request(app()).get(`/fields/${id}`).set('Authorization', t.alice.auth)).body.description).toBe('before');

    const got = await request(app()).get(`/fields/${upper}`).set('Authorization', t.alice.auth);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(id);

    const put = await request(app()).put(`/fields/${upper}`).set('Authorization', t.alice.auth).send(field('after', 10));
    expect(put.status).toBe(200);
    expect(put.body.id).toBe(id);
    const read = await request(app()).get(`/fields/${id}`).set('Authorization', t.alice.auth);
    expect(read.body.description).toBe('after');
    expect(read.body.centroid.longitude).toBeCloseTo(10.005, 9);
    const listed = await request(app()).get('/fields').set('Authorization', t.alice.auth);
    expect(listed.body.map((f: { id: string }) => f.id)).toEqual([id]);

    expect((await request(app()).get(`/fields/${upper}`).set('Authorization', t.bob.auth)).status).toBe(404);
    expect((await request(app()).delete(`/fields/${upper}`).set('Authorization', t.alice.auth)).status).toBeLessThan(300);
    expect((await request(app()).get(`/fields/${id}`).set('Authorization', t.alice.auth)).status).toBe(404);
    expect(
      (await request(app()).get(`/growing-degree-days/${id}?start=2024-04-01&end=2024-04-10`).set('Authorization', t.alice.auth)).status,
    ).toBe(404);
  });

  it('the record cache keys on the canonical id, whatever spelling a caller used', () => {
    const cache = new FieldRecordCache();
    const id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
    const record: FieldRecord = {
      id,
      accountId: 'acc',
      description: 'a',
      polygons: [],
      centroid: { latitude: 0, longitude: 0 },
      areaM2: 0,
    };
    cache.fill(cache.readStarted(), record);
    expect(cache.get(id.toUpperCase())).toBe(record);
    cache.invalidate(id.toUpperCase());
    expect(cache.get(id)).toBeUndefined();
  });
});
