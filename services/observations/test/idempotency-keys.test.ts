import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { observationsService } from '../src/definition.js';
import { JSON_V1, site } from './observation-sets-client.js';

/** An observation set published again under its Idempotency-Key (docs/interface.md §1): one set, one event. */
const t = useTestFleet([observationsService]);
const body = (siteId: string) => ({ sites: [site(siteId, ['2026-04-01T06:00:00Z'])], tags: { purpose: 'retry' } });
const publish = (siteId: string, key: string) =>
  request(t.fleet.app('observations'))
    .post('/observation-sets')
    .set('Authorization', t.alice.auth)
    .set('Accept', JSON_V1)
    .set('Idempotency-Key', key)
    .send(body(siteId));
const count = async (table: string) => Number((await t.fleet.db.knex.withSchema('observations').table(table).count({ n: '*' }).first())?.n);

describe('POST /observation-sets under an Idempotency-Key', () => {
  it('answers a retry with the first summary and stores one set and one published event; another body is 422', async () => {
    const first = await publish('gauge-1', '"obs-retry-1"');
    expect(first.status).toBe(201);
    const again = await publish('gauge-1', '"obs-retry-1"');
    expect([again.status, again.headers['idempotent-replayed'], again.headers.location]).toEqual([201, 'true', first.headers.location]);
    expect(again.body).toEqual(first.body);
    expect(await count('observation_sets')).toBe(1);
    expect(await count('outbox')).toBe(1);
    const other = await publish('gauge-2', '"obs-retry-1"');
    expect([other.status, other.body.id]).toEqual([422, 'idempotency_key_reused']);
    expect(await count('observation_sets')).toBe(1);
    const listed = await request(t.fleet.app('observations')).get('/observation-sets').set('Authorization', t.alice.auth);
    expect(listed.body.map((s: { id: string }) => s.id)).toEqual([first.body.id]);
  });

  it('refuses a key that is no quoted string, naming the header', async () => {
    const res = await publish('gauge-1', 'obs-retry-1');
    expect([res.status, res.body.id]).toEqual([400, 'invalid_idempotency_key']);
    expect(await count('observation_sets')).toBe(0);
  });
});
