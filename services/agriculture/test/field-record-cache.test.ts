import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';
import type { FieldRecord } from '../src/domain/fields.js';
import { FieldRecordCache } from '../src/field-record-cache.js';

const record = (id: string, description = 'a'): FieldRecord => ({
  id,
  accountId: 'acc',
  description,
  polygons: [],
  centroid: { latitude: 0, longitude: 0 },
  areaM2: 0,
});

describe('FieldRecordCache', () => {
  it('keeps what was read and drops a field on write', () => {
    const cache = new FieldRecordCache();
    cache.fill(cache.readStarted(), record('f1'));
    expect(cache.get('f1')?.description).toBe('a');
    cache.invalidate('f1');
    expect(cache.get('f1')).toBeUndefined();
  });

  it('does not cache a read that a write overlapped (the read may hold the old row)', () => {
    const cache = new FieldRecordCache();
    const token = cache.readStarted();
    cache.invalidate('f1'); // a PUT starts while the read is in flight
    cache.fill(token, record('f1', 'old'));
    expect(cache.get('f1')).toBeUndefined();
  });

  it('evicts the least recently used record beyond its capacity', () => {
    const cache = new FieldRecordCache(2);
    cache.fill(cache.readStarted(), record('a'));
    cache.fill(cache.readStarted(), record('b'));
    cache.get('a');
    cache.fill(cache.readStarted(), record('c'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });
});

describe('field lookups through the cache (embedded PGlite: this process is the only writer)', () => {
  const t = useTestFleet([agricultureService]);
  const app = () => t.fleet.app('agriculture');
  const polygon = (lon: number, lat: number) => ({
    description: 'cached',
    type: 'GeometryCollection',
    geometries: [
      {
        type: 'Polygon',
        coordinates: [
          [
            [lon, lat],
            [lon + 0.01, lat],
            [lon + 0.01, lat + 0.01],
            [lon, lat + 0.01],
            [lon, lat],
          ],
        ],
      },
    ],
  });
  const gdd = (id: string, auth: string) =>
    request(app()).get(`/growing-degree-days/${id}?start=2024-04-01&end=2024-06-30`).set('Authorization', auth);

  it('serves the new geometry after a PUT, 404 after a DELETE, and never another account', async () => {
    const created = await request(app()).post('/fields').set('Authorization', t.alice.auth).send(polygon(-93.5, 42));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const first = await gdd(id, t.alice.auth);
    expect(first.status).toBe(200);
    expect((await gdd(id, t.alice.auth)).body).toEqual(first.body); // from the cache, same answer
    expect((await gdd(id, t.bob.auth)).status).toBe(404);

    const put = await request(app()).put(`/fields/${id}`).set('Authorization', t.alice.auth).send(polygon(10, 45));
    expect(put.status).toBe(200);
    const moved = await gdd(id, t.alice.auth);
    expect(moved.status).toBe(200);
    expect(moved.body.degreeDays).not.toBe(first.body.degreeDays);
    expect((await request(app()).get(`/fields/${id}`).set('Authorization', t.alice.auth)).body.centroid.longitude).toBeCloseTo(10.005, 9);

    expect((await request(app()).delete(`/fields/${id}`).set('Authorization', t.alice.auth)).status).toBeLessThan(300);
    expect((await gdd(id, t.alice.auth)).status).toBe(404);
  });
});
