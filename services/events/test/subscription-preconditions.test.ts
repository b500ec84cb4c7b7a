import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { receiverOf } from '../src/domain/subscriptions.js';
import { eventsService } from '../src/definition.js';

// A subscription's delete honours If-Match (docs/decisions/0461-owned-resources-honour-if-match.md).
// Its read shows its receiver's allowed rate, which another table holds: the tag a read gives and
// the one a delete is judged against are of the same view.

const t = useTestFleet([eventsService], { webhookAllowPrivate: ['127.0.0.1'] });
const events = () => request(t.fleet.app('events'));
const URL = 'http://127.0.0.1:9/hook';
const FILTER = { namespaces: ['agriculture/fields'] };
const rate = (allowed: number) =>
  t.fleet.db.knex
    .withSchema('events')
    .table('receivers')
    .where({ url: receiverOf(URL) })
    .update({ allowed_rate: allowed });

it('a subscription whose receiver has a rate: the read’s ETag passes If-Match on delete; one read before the rate changed is 412', async () => {
  const created = await events().post('/subscriptions').set('Authorization', t.alice.auth).send({ url: URL, filter: FILTER });
  expect(created.status).toBe(201);
  const read = () => events().get(`/subscriptions/${created.body.id}`).set('Authorization', t.alice.auth);
  const remove = (ifMatch: string) =>
    events().delete(`/subscriptions/${created.body.id}`).set('Authorization', t.alice.auth).set('If-Match', ifMatch);
  await rate(2);
  const before = await read();
  expect(before.body.allowedRate).toBe(2);
  await rate(5);
  expect((await remove(before.headers.etag as string)).status).toBe(412);
  const now = await read();
  expect(now.body.allowedRate).toBe(5);
  expect((await remove(now.headers.etag as string)).status).toBe(200);
});
