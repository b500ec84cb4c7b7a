import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { eventsService } from '../src/definition.js';
import { STORED_TOPIC } from '../src/domain/stored-events.js';
import { SUBSCRIPTIONS_TOPIC } from '../src/webhook-store.js';

/** Webhook subscriptions and events created again under an Idempotency-Key (docs/interface.md §1). */
const t = useTestFleet([eventsService], { webhookAllowPrivate: ['127.0.0.1'] });
const events = () => request(t.fleet.app('events'));
const count = async (table: string, where: Record<string, string> = {}) =>
  Number((await t.fleet.db.knex.withSchema('events').table(table).where(where).count({ n: '*' }).first())?.n);

describe('POST /subscriptions under an Idempotency-Key', () => {
  const subscribe = (url: string, key: string) =>
    events().post('/subscriptions').set('Authorization', t.alice.auth).set('Idempotency-Key', key).send({ url });

  it('answers a retry with the first answer, its secret included, and creates one subscription and one event', async () => {
    const first = await subscribe('http://127.0.0.1:9/hook', '"sub-retry-1"');
    expect(first.status).toBe(201);
    expect(first.body.secret).toEqual(expect.any(String));
    const again = await subscribe('http://127.0.0.1:9/hook', '"sub-retry-1"');
    expect([again.status, again.headers['idempotent-replayed'], again.headers.location]).toEqual([201, 'true', first.headers.location]);
    expect(again.body).toEqual(first.body);
    expect(await count('subscriptions')).toBe(1);
    expect(await count('outbox', { topic: SUBSCRIPTIONS_TOPIC })).toBe(1);
    const other = await subscribe('http://127.0.0.1:9/other', '"sub-retry-1"');
    expect([other.status, other.body.id]).toEqual([422, 'idempotency_key_reused']);
    expect(await count('subscriptions')).toBe(1);
  });
});

const JOB = '5d0c1c9e-8f7b-4a0e-9c7e-3b2a1f0e9d8c';

describe('POST /events under an Idempotency-Key', () => {
  const emit = (message: string, key: string) =>
    events()
      .post('/events')
      .set('Authorization', t.alice.auth)
      .set('Idempotency-Key', key)
      .send({
        app: t.alice.handle,
        origin: { namespace: 'farm/jobs', id: JOB },
        namespace: 'farm/jobs/done',
        message: `${message} by job {}`,
        occurrenceTime: '2026-05-01T11:59:00Z',
        tagged: [{ namespace: 'farm/jobs', id: JOB }],
      });

  it('answers a retry with the first event and stores it once', async () => {
    const first = await emit('Spraying done', '"event-retry-1"');
    expect([first.status, first.body]).toEqual([200, expect.objectContaining({ app: t.alice.handle })]);
    const again = await emit('Spraying done', '"event-retry-1"');
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(again.body).toEqual(first.body);
    // the subscription above is an event too, stored whenever its message arrives: count this job's
    expect(await count('events', { origin_id: JOB })).toBe(1);
    expect(await count('outbox', { topic: STORED_TOPIC, key: JOB })).toBe(1);
    // the answer is the event as a read shows it
    expect((await events().get(`/events/${first.body.id}`).set('Authorization', t.alice.auth)).body).toEqual(first.body);
  });
});
