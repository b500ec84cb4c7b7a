import request from 'supertest';
import { verifyWebhook } from '@fieldcast/client';
import { agricultureService } from '@fieldcast/agriculture';
import { eventually, type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { createLogger } from '@fieldcast/kit';
import { migrateSchema } from '@fieldcast/db';
import { receiversMigration } from '../migrations/009_receivers.js';
import { pausedByMigration } from '../migrations/013_paused_by.js';
import { dispatcherOf, eventsService } from '../src/definition.js';
import { DEAD_LETTER_AFTER_MS } from '../src/domain/webhook-delivery.js';
import { SENDS_PER_SUBSCRIPTION } from '../src/webhooks/dispatcher.js';
import { DeliveryStore } from '../src/webhook-store.js';
import { STORED_PATTERN, WEBHOOKS_GROUP } from '../src/webhooks/fan-out.js';
import { AddressGuard } from '../src/webhooks/address-guard.js';
import { WebhookDispatcher } from '../src/webhooks/dispatcher.js';
import { type SendRequest, WebhookSender } from '../src/webhooks/sender.js';
import { fieldBody } from './helpers.js';
import { previousRelease } from './previous-release.js';
import { WebhookReceiver } from './webhook-receiver.js';

const START = Date.parse('2026-06-01T00:00:00Z');
let nowMs = START;
/** when set, each reading of the clock is a millisecond after the last (two readings never agree) */
let ticking = false;
const t = useTestFleet([agricultureService, eventsService], {
  now: () => new Date(ticking ? ++nowMs : nowMs),
  webhookAllowPrivate: ['127.0.0.1'],
});

let receiver: WebhookReceiver;
beforeEach(async () => {
  nowMs = START;
  ticking = false;
  receiver = new WebhookReceiver();
  await receiver.start();
});
afterEach(() => receiver.stop());

const events = () => request(t.fleet.app('events'));
const FIELDS = { namespaces: ['agriculture/fields'] };

async function subscribe(account: TestAccount, filter: object = FIELDS, url = receiver.url) {
  const res = await events().post('/subscriptions').set('Authorization', account.auth).send({ url, filter });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string; status: string };
}

async function createField(account: TestAccount): Promise<string> {
  const res = await request(t.fleet.app('agriculture')).post('/fields').set('Authorization', account.auth).send(fieldBody());
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  status: string;
  attemptCount: number;
  attempts: { statusCode: number | null; error: string | null }[];
  nextAttemptTime: string | null;
}

async function deliveries(account: TestAccount, subscription: string, query = ''): Promise<DeliveryView[]> {
  const res = await events().get(`/subscriptions/${subscription}/deliveries${query}`).set('Authorization', account.auth);
  expect(res.status).toBe(200);
  return res.body as DeliveryView[];
}

/** An event of a field's, `action` at `atMs`, as the spine stores it (spec 2.10), for a test that fans it out itself. */
function fieldEvent(resource: string, action: string, atMs: number) {
  const time = new Date(atMs).toISOString();
  return {
    id: crypto.randomUUID(),
    app: 'agriculture',
    origin: { namespace: 'agriculture/fields', id: resource },
    namespace: `agriculture/fields/${action}`,
    status: 'ACTIVE',
    message: `Field {} was ${action}`,
    creationTime: time,
    occurrenceTime: time,
    expirationTime: null,
    tagged: [],
  };
}

/** One pass of the background task, and the sends it started, to their end. */
async function runDeliveries(): Promise<void> {
  await t.fleet.runBackground('events', 'webhook-deliveries');
  await dispatcherOf(t.fleet.deps('events') as Parameters<typeof dispatcherOf>[0]).settled();
}

/** Moves the clock to the earliest next try still ahead among the subscription's pending deliveries and runs one retry pass. */
async function retryPass(account: TestAccount, subscription: string): Promise<void> {
  const ahead = (await deliveries(account, subscription, '?status=pending'))
    .map((d) => Date.parse(d.nextAttemptTime!))
    .filter((ms) => ms > nowMs);
  if (ahead.length > 0) nowMs = Math.min(...ahead);
  await runDeliveries();
}

describe('webhook subscriptions', () => {
  test('the handshake comes first, then each event as a signed CloudEvent the client verifies', async () => {
    const sub = await subscribe(t.alice);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(sub.status).toBe('validating');
    const field = await createField(t.alice);
    const [delivered] = await eventually(() => {
      expect(receiver.delivered).toHaveLength(1);
      return receiver.deliveries;
    });
    expect(receiver.requests[0]!.method).toBe('OPTIONS');
    expect(receiver.requests[0]!.headers['webhook-request-origin']).toBe('fieldcast');
    // every delivery request names the sender too (HTTP 1.1 Web Hooks for Event Delivery 4.1)
    expect(delivered!.headers['webhook-request-origin']).toBe('fieldcast');
    expect(delivered!.headers['content-type']).toMatch(/^application\/cloudevents\+json/);
    const ce = JSON.parse(delivered!.body);
    expect(ce).toMatchObject({ specversion: '1.0', type: 'fieldcast.agriculture.fields.created', subject: field });
    expect(ce.data).toMatchObject({ namespace: 'agriculture/fields/created', origin: { id: field } });
    expect(delivered!.headers['webhook-timestamp']).toBe(String(START / 1000));
    expect(await verifyWebhook(sub.secret, delivered!.body, delivered!.headers, { nowSeconds: START / 1000 })).toBe(true);
    expect(
      await verifyWebhook(sub.secret, delivered!.body.replace(field, crypto.randomUUID()), delivered!.headers, {
        nowSeconds: START / 1000,
      }),
    ).toBe(false);
    // The event's id is the feed's: the receiver can read it back, and `data` is that Event as
    // the API writes it, members in the same order (spec 2.10), not as a database stored them.
    const readBack = await events().get(`/events/${ce.id}`).set('Authorization', t.alice.auth);
    expect(readBack.status).toBe(200);
    expect(JSON.stringify(ce.data)).toBe(readBack.text);
    // The secret is shown once.
    const read = await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth);
    expect(read.body).toMatchObject({ id: sub.id, status: 'active', statusMessage: null, filter: FIELDS });
    expect(read.body.secret).toBeUndefined();
    const list = await events().get('/subscriptions').set('Authorization', t.alice.auth);
    expect(list.body.map((s: { id: string; secret?: string }) => [s.id, s.secret])).toEqual([[sub.id, undefined]]);
    const [d] = await deliveries(t.alice, sub.id);
    expect(d).toMatchObject({ eventId: ce.id, status: 'delivered', attemptCount: 1, attempts: [{ statusCode: 200, error: null }] });
    // webhook-id names this delivery (Standard Webhooks: the message's id, the same on every retry)
    expect(delivered!.headers['webhook-id']).toBe(d!.id);
  });

  test('one event to two subscriptions of one URL: the same CloudEvent, two messages a receiver keeps apart by webhook-id', async () => {
    const byNamespace = await subscribe(t.alice);
    const everything = await subscribe(t.alice, {});
    const field = await createField(t.alice);
    await eventually(() => expect(receiver.delivered.filter((ce) => ce.subject === field)).toHaveLength(2));
    const sent = receiver.deliveries.filter((r) => JSON.parse(r.body).subject === field);
    // CloudEvents: id and source name the event, so both carry the event's
    expect(new Set(sent.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    // a receiver that drops repeats by webhook-id must not drop the second subscription's message
    const ids = sent.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(2);
    // each subscription's delivery of this event (the one without a filter takes other events too)
    const eventId = JSON.parse(sent[0]!.body).id as string;
    const ofEvent = async (subscription: string) => (await deliveries(t.alice, subscription)).find((d) => d.eventId === eventId)!.id;
    expect(ids.sort()).toEqual([await ofEvent(byNamespace.id), await ofEvent(everything.id)].sort());
  });

  test('a created subscription’s Location (RFC 9110 section 10.2.2) reads it back; a cursor given twice is told so', async () => {
    const made = await events().post('/subscriptions').set('Authorization', t.alice.auth).send({ url: receiver.url, filter: FIELDS });
    expect([made.status, made.headers.location]).toEqual([201, `/subscriptions/${made.body.id}`]);
    const read = await events().get(made.headers.location!).set('Authorization', t.alice.auth);
    expect([read.status, read.body.id]).toEqual([200, made.body.id]);
    const id = made.body.id as string;
    for (const path of ['/subscriptions', `/subscriptions/${id}/deliveries`]) {
      const twice = await events().get(`${path}?after=${id}&after=${id}`).set('Authorization', t.alice.auth);
      expect([twice.status, twice.body.errors]).toEqual([
        400,
        [{ path: 'after', message: 'after must be given once, as the id of an item of the list (a UUID)' }],
      ]);
    }
  });

  test('a URL that fails the handshake is validation_failed and receives nothing', async () => {
    receiver.handshake = 'no-header';
    const sub = await subscribe(t.alice);
    await createField(t.alice);
    const failed = await eventually(async () => {
      const res = await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth);
      expect(res.body.status).toBe('validation_failed');
      return res.body;
    });
    expect(failed.statusMessage).toMatch(/WebHook-Allowed-Origin/);
    await createField(t.alice);
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(0);
    expect(await deliveries(t.alice, sub.id)).toHaveLength(0);
  });

  test('a wildcard WebHook-Allowed-Origin passes the handshake', async () => {
    receiver.handshake = 'wildcard';
    await subscribe(t.alice);
    await createField(t.alice);
    await eventually(() => expect(receiver.delivered).toHaveLength(1));
  });

  test('after 500s it retries with growing, jittered pauses, the same id and bytes each time', async () => {
    receiver.answer = (n) => (n <= 2 ? 500 : 204);
    const sub = await subscribe(t.alice);
    await createField(t.alice);
    const first = await eventually(async () => {
      const [d] = await deliveries(t.alice, sub.id);
      expect(d?.attemptCount).toBe(1);
      return d!;
    });
    expect(first).toMatchObject({ status: 'pending', attempts: [{ statusCode: 500, error: null }] });
    // attempt 1 failed: 10 s doubled per attempt, half of it jitter
    const wait1 = Date.parse(first.nextAttemptTime!) - nowMs;
    expect(wait1).toBeGreaterThanOrEqual(5_000);
    expect(wait1).toBeLessThanOrEqual(10_000);
    // not due yet: a pass a second early sends nothing
    nowMs += wait1 - 1000;
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(1);
    await retryPass(t.alice, sub.id);
    const [second] = await deliveries(t.alice, sub.id);
    const wait2 = Date.parse(second!.nextAttemptTime!) - nowMs;
    expect(second!.attemptCount).toBe(2);
    expect(wait2).toBeGreaterThanOrEqual(10_000);
    expect(wait2).toBeLessThanOrEqual(20_000);
    await retryPass(t.alice, sub.id);
    const [third] = await deliveries(t.alice, sub.id);
    expect(third).toMatchObject({ status: 'delivered', attemptCount: 3, nextAttemptTime: null });
    expect(third!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 204]);
    const sent = receiver.deliveries;
    expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    // each attempt is signed at its own time
    for (const r of sent)
      expect(await verifyWebhook(sub.secret, r.body, r.headers, { nowSeconds: Number(r.headers['webhook-timestamp']) })).toBe(true);
  });

  /** A subscription of alice's whose three deliveries failed for 24 hours: three dead letters, paused. */
  async function pausedSubscription(): Promise<{ sub: { id: string }; dead: DeliveryView[] }> {
    receiver.answer = () => 503;
    const sub = await subscribe(t.alice);
    for (let i = 0; i < 3; i++) await createField(t.alice);
    await eventually(async () => expect((await deliveries(t.alice, sub.id)).map((d) => d.attemptCount)).toEqual([1, 1, 1]));
    for (let pass = 0; pass < 200 && (await deliveries(t.alice, sub.id, '?status=pending')).length > 0; pass++)
      await retryPass(t.alice, sub.id);
    return { sub, dead: await deliveries(t.alice, sub.id, '?status=dead') };
  }

  test('after 24 hours of failures a delivery is a dead letter; three in a row pause the subscription; a retry resumes it', async () => {
    const { sub, dead } = await pausedSubscription();
    expect(dead).toHaveLength(3);
    for (const d of dead) {
      expect(d.attemptCount).toBeGreaterThan(20);
      expect(d.nextAttemptTime).toBeNull();
    }
    expect(nowMs - START).toBeGreaterThanOrEqual(24 * 3600_000);
    const paused = (await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body;
    expect(paused).toMatchObject({ status: 'paused' });
    expect(paused.statusMessage).toMatch(/3 dead letters/);
    // paused: new events are not queued
    await createField(t.alice);
    await eventually(async () => expect((await events().get('/events').set('Authorization', t.alice.auth)).body).toHaveLength(5));
    expect(await deliveries(t.alice, sub.id)).toHaveLength(3);
    // a retry of a dead letter resumes the subscription: the handshake again, then the delivery
    receiver.answer = () => 200;
    const retried = await events().post(`/subscriptions/${sub.id}/deliveries/${dead[0]!.id}/retry`).set('Authorization', t.alice.auth);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: dead[0]!.id, status: 'pending' });
    const resumed = (await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body;
    expect(resumed).toMatchObject({ status: 'validating', statusMessage: expect.stringMatching(/validated again/) });
    const before = receiver.requests.length;
    await runDeliveries();
    expect(receiver.requests.slice(before).map((r) => r.method)).toEqual(['OPTIONS', 'POST']);
    expect((await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body).toMatchObject({
      status: 'active',
      statusMessage: null,
    });
    expect((await deliveries(t.alice, sub.id, '?status=delivered')).map((d) => d.id)).toEqual([dead[0]!.id]);
    const again = await events().post(`/subscriptions/${sub.id}/deliveries/${dead[0]!.id}/retry`).set('Authorization', t.alice.auth);
    expect(again.status).toBe(409);
    expect(again.body.id).toBe('delivery_not_dead');
  });

  test('deliveries that ended are deleted 30 days after they ended; pending ones are kept', async () => {
    const DAY = 24 * 3600_000;
    const DELIVERED = 'fieldcast.agriculture.fields.created';
    receiver.answer = (_n, body) => (body.includes(DELIVERED) ? 200 : 500);
    const sub = await subscribe(t.alice);
    const field = await createField(t.alice);
    const agriculture = () => request(t.fleet.app('agriculture'));
    for (const d of ['second', 'third'])
      expect((await agriculture().put(`/fields/${field}`).set('Authorization', t.alice.auth).send(fieldBody(d))).status).toBe(200);
    // The creation delivered; the first update failed once; the second waits behind it.
    await eventually(async () =>
      expect((await deliveries(t.alice, sub.id)).map((d) => [d.status, d.attemptCount])).toEqual([
        ['pending', 0],
        ['pending', 1],
        ['delivered', 1],
      ]),
    );
    const [waiting, failing, delivered] = await deliveries(t.alice, sub.id);
    // A day later the first update fails again: a dead letter, which no longer holds back the second.
    nowMs = START + 25 * 3600_000;
    await runDeliveries();
    expect((await deliveries(t.alice, sub.id, '?status=dead')).map((d) => d.id)).toEqual([failing!.id]);
    const kept = async () => (await deliveries(t.alice, sub.id)).map((d) => d.id);
    const prune = async (atMs: number) => {
      nowMs = atMs;
      await t.fleet.runBackground('events', 'webhook-retention');
    };
    await prune(START + 30 * DAY);
    expect(await kept()).toEqual([waiting!.id, failing!.id, delivered!.id]);
    await prune(START + 30 * DAY + 1000);
    expect(await kept()).toEqual([waiting!.id, failing!.id]);
    await prune(START + 25 * 3600_000 + 30 * DAY + 1000);
    // The pending delivery, older than any of them, stays: it has not ended.
    expect(await kept()).toEqual([waiting!.id]);
    const retry = await events().post(`/subscriptions/${sub.id}/deliveries/${failing!.id}/retry`).set('Authorization', t.alice.auth);
    expect([retry.status, retry.body.id]).toEqual([404, 'delivery_does_not_exist']);
  });

  test('a resumed subscription whose URL no longer passes the handshake is validation_failed and receives nothing, until a retry passes it', async () => {
    const { sub, dead } = await pausedSubscription();
    expect((await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body.status).toBe('paused');
    // The address now answers for someone who never agreed to receive these events.
    receiver.handshake = 'no-header';
    receiver.answer = () => 200;
    const posts = receiver.deliveries.length;
    expect(
      (await events().post(`/subscriptions/${sub.id}/deliveries/${dead[0]!.id}/retry`).set('Authorization', t.alice.auth)).status,
    ).toBe(202);
    await runDeliveries();
    expect(receiver.requests[receiver.requests.length - 1]!.method).toBe('OPTIONS');
    expect(receiver.deliveries).toHaveLength(posts);
    const failed = (await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body;
    expect(failed).toMatchObject({ status: 'validation_failed', statusMessage: expect.stringMatching(/WebHook-Allowed-Origin/) });
    // what was queued is dropped; the dead letters stay listed for their 30 days (docs/interface.md, webhooks: retries)
    expect(await deliveries(t.alice, sub.id, '?status=pending')).toEqual([]);
    expect((await deliveries(t.alice, sub.id, '?status=dead')).map((d) => d.id)).toEqual(dead.slice(1).map((d) => d.id));

    // Its owner fixes the receiver and retries another dead letter: the 202 is kept, through the
    // handshake again, rather than leaving a pending delivery that nothing would ever send.
    receiver.handshake = 'allow';
    const retried = await events().post(`/subscriptions/${sub.id}/deliveries/${dead[1]!.id}/retry`).set('Authorization', t.alice.auth);
    expect([retried.status, retried.body.status]).toEqual([202, 'pending']);
    expect((await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body).toMatchObject({
      status: 'validating',
      statusMessage: expect.stringMatching(/validated again/),
    });
    const before = receiver.requests.length;
    await runDeliveries();
    expect(receiver.requests.slice(before).map((r) => r.method)).toEqual(['OPTIONS', 'POST']);
    expect((await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body.status).toBe('active');
    expect((await deliveries(t.alice, sub.id, '?status=delivered')).map((d) => d.id)).toEqual([dead[1]!.id]);
  });

  test('one resource’s events arrive in order: a failing one holds back the ones after it', async () => {
    receiver.answer = (n) => (n === 1 ? 500 : 200);
    const sub = await subscribe(t.alice);
    const field = await createField(t.alice);
    const agriculture = () => request(t.fleet.app('agriculture'));
    for (const d of ['second', 'third'])
      expect((await agriculture().put(`/fields/${field}`).set('Authorization', t.alice.auth).send(fieldBody(d))).status).toBe(200);
    await eventually(async () => expect(await deliveries(t.alice, sub.id)).toHaveLength(3));
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(1);
    for (let pass = 0; pass < 5 && receiver.delivered.length < 3; pass++) await retryPass(t.alice, sub.id);
    expect(receiver.delivered.map((e) => e.type)).toEqual([
      'fieldcast.agriculture.fields.created',
      'fieldcast.agriculture.fields.updated',
      'fieldcast.agriculture.fields.updated',
    ]);
    // the held-back ones were never tried before the first was delivered
    expect(receiver.deliveries.map((r) => r.status)).toEqual([500, 200, 200, 200]);
  });

  test('a stored event fanned out again, as a message published again after a crash is, adds no second delivery', async () => {
    // docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md: the consumers take a message at least once
    const resource = crypto.randomUUID();
    const sub = await subscribe(t.alice, { resources: [resource] });
    const store = new DeliveryStore(t.fleet.db.knex);
    const stored = { event: fieldEvent(resource, 'created', nowMs), appId: crypto.randomUUID(), owner: t.alice.id };
    expect(await store.fanOut(stored, new Date(nowMs))).toBe(1);
    expect(await store.fanOut(stored, new Date(nowMs))).toBe(0);
    const kept = await t.fleet.db.knex
      .withSchema('events')
      .table('deliveries')
      .where({ subscription_id: sub.id, event_id: stored.event.id })
      .count({ n: '*' });
    expect(Number(kept[0]!.n)).toBe(1);
  });

  test('a resource’s next event is sent in the same run of passes as the one it waited for, not left for the retry task', async () => {
    const sub = await subscribe(t.alice, {});
    // the subscription's own creation, delivered: the subscription is active and nothing is due
    await eventually(async () => expect(await deliveries(t.alice, sub.id, '?status=delivered')).toHaveLength(1));
    const store = new DeliveryStore(t.fleet.db.knex);
    const resource = crypto.randomUUID();
    for (const action of ['created', 'updated']) {
      const event = fieldEvent(resource, action, nowMs);
      expect(await store.fanOut({ event, appId: crypto.randomUUID(), owner: t.alice.id }, new Date(nowMs))).toBe(1);
    }
    // one wake-up, as the fan-out gives after adding both: the update waits for the creation, then follows
    const dispatcher = new WebhookDispatcher({
      store,
      sender: new WebhookSender(new AddressGuard(['127.0.0.1'], false), 2000),
      now: () => new Date(nowMs),
      logger: createLogger({ level: 'silent' }),
      origin: 'fieldcast',
    });
    dispatcher.kick();
    try {
      await eventually(
        () =>
          expect(receiver.delivered.filter((e) => e.subject === resource).map((e) => e.type)).toEqual([
            'fieldcast.agriculture.fields.created',
            'fieldcast.agriculture.fields.updated',
          ]),
        5_000,
      );
    } finally {
      await dispatcher.stop();
    }
  });

  test('a backlog of one resource drains in the retry pass that delivers its first event', async () => {
    receiver.answer = (n) => (n === 1 ? 500 : 200);
    const sub = await subscribe(t.alice);
    const field = await createField(t.alice);
    const agriculture = () => request(t.fleet.app('agriculture'));
    for (const d of ['second', 'third', 'fourth'])
      expect((await agriculture().put(`/fields/${field}`).set('Authorization', t.alice.auth).send(fieldBody(d))).status).toBe(200);
    await eventually(async () => expect((await deliveries(t.alice, sub.id)).map((d) => d.attemptCount)).toEqual([0, 0, 0, 1]));
    // one retry pass of the background task: the first event, then each one it held back
    await retryPass(t.alice, sub.id);
    expect((await deliveries(t.alice, sub.id)).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(receiver.delivered).toHaveLength(4);
  });

  test('Retry-After is observed on 429 and 503, in seconds or as an HTTP-date, capped at an hour', async () => {
    const retryAt = new Date(START + 600_000).toUTCString();
    receiver.answer = (n) =>
      n === 1
        ? { status: 429, headers: { 'Retry-After': '120' } }
        : n === 2
          ? { status: 503, headers: { 'Retry-After': retryAt } }
          : n === 3
            ? { status: 429, headers: { 'Retry-After': String(7 * 24 * 3600) } }
            : 200;
    const sub = await subscribe(t.alice);
    await createField(t.alice);
    const waitAfter = async (attempts: number) => {
      const [d] = await eventually(async () => {
        const list = await deliveries(t.alice, sub.id);
        expect(list[0]?.attemptCount).toBe(attempts);
        return list;
      });
      return Date.parse(d!.nextAttemptTime!) - nowMs;
    };
    // the backoff would be 5 to 10 s: the receiver asked for two minutes
    expect(await waitAfter(1)).toBe(120_000);
    nowMs += 119_000;
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(1);
    nowMs += 1000;
    await runDeliveries();
    // an HTTP-date: the next attempt no earlier than that instant
    expect(nowMs + (await waitAfter(2))).toBe(START + 600_000);
    nowMs = START + 600_000;
    await runDeliveries();
    // a week is capped at the longest backoff, an hour
    expect(await waitAfter(3)).toBe(3600_000);
  });

  test('Retry-After holds every request to the URL until then, not only the retry of the delivery it answered', async () => {
    // HTTP 1.1 Web Hooks for Event Delivery 2.2: the sender refrains from sending further requests until the indicated time
    receiver.answer = (n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '120' } } : 200);
    const sub = await subscribe(t.alice);
    const first = await createField(t.alice);
    await eventually(async () => expect((await deliveries(t.alice, sub.id))[0]?.attemptCount).toBe(1));
    // another resource's event: not held back by the first one's order, but by the receiver's Retry-After
    const second = await createField(t.alice);
    await eventually(async () => expect(await deliveries(t.alice, sub.id)).toHaveLength(2));
    await runDeliveries();
    nowMs += 119_000;
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(1);
    // the listing says when the held delivery goes
    const held = (await deliveries(t.alice, sub.id)).find((d) => d.attemptCount === 0)!;
    expect(held.nextAttemptTime).toBe(new Date(START + 120_000).toISOString());
    nowMs += 1000;
    await runDeliveries();
    expect(receiver.delivered.map((e) => e.subject).sort()).toEqual([first, second].sort());
  });

  test('410 Gone stops the deliveries: a dead letter, the subscription paused saying why; a retry resumes it', async () => {
    receiver.answer = (n) => (n === 1 ? 410 : 200);
    const sub = await subscribe(t.alice);
    const field = await createField(t.alice);
    const paused = await eventually(async () => {
      const res = await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth);
      expect(res.body.status).toBe('paused');
      return res.body;
    });
    expect(paused.statusMessage).toMatch(/410 Gone/);
    const [dead] = await deliveries(t.alice, sub.id, '?status=dead');
    expect(dead).toMatchObject({ attemptCount: 1, attempts: [{ statusCode: 410 }], nextAttemptTime: null });
    // nothing more is sent: later events are not queued, and no pass sends anything
    expect(
      (await request(t.fleet.app('agriculture')).put(`/fields/${field}`).set('Authorization', t.alice.auth).send(fieldBody('x'))).status,
    ).toBe(200);
    // the update is stored (with Kafka it arrives on its own time) while the subscription is still paused
    await eventually(async () => {
      const stored = (await events().get('/events').set('Authorization', t.alice.auth)).body as { message: string }[];
      expect(stored.map((e) => e.message)).toContain('Field {} was updated');
    });
    // ... and fanned out while the subscription is still paused: its stored-event message published
    // and taken by the webhooks group (with Kafka, after the event is stored and on its own time)
    await eventually(async () => {
      const unsent = await t.fleet.db.knex.withSchema('events').table('outbox').whereNull('sent_at').count({ n: '*' });
      expect(Number(unsent[0]!.n)).toBe(0);
      expect((await t.fleet.transport.lag(WEBHOOKS_GROUP, STORED_PATTERN)).filter((p) => p.messages > 0)).toEqual([]);
    });
    nowMs += 3600_000;
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(1);
    const retried = await events().post(`/subscriptions/${sub.id}/deliveries/${dead!.id}/retry`).set('Authorization', t.alice.auth);
    expect(retried.status).toBe(202);
    await runDeliveries();
    expect((await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body.status).toBe('active');
    expect(receiver.delivered).toHaveLength(1);
  });

  test('410 Gone pauses every subscription of the account to the URL, not another account’s; a retry resumes them all', async () => {
    // docs/decisions/0457-410-gone-retires-the-url-for-the-account.md
    const store = new DeliveryStore(t.fleet.db.knex);
    const [first, second, bobs] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const gone = await subscribe(t.alice, { resources: [first] });
    const sibling = await subscribe(t.alice, { resources: [second] });
    const other = await subscribe(t.bob, { resources: [bobs] });
    await runDeliveries();
    const fanOut = (resource: string, owner: string) =>
      store.fanOut({ event: fieldEvent(resource, 'created', nowMs), appId: crypto.randomUUID(), owner }, new Date(nowMs));
    receiver.answer = (n) => (n === 1 ? 410 : 200);
    expect(await fanOut(first, t.alice.id)).toBe(1);
    await runDeliveries();
    const status = async (account: TestAccount, id: string) =>
      (await events().get(`/subscriptions/${id}`).set('Authorization', account.auth)).body as {
        status: string;
        statusMessage: string | null;
      };
    expect(await status(t.alice, sibling.id)).toEqual(
      expect.objectContaining({ status: 'paused', statusMessage: expect.stringMatching(/410 Gone/) }),
    );
    // the sibling sends nothing more to the URL: paused, it gets no deliveries
    expect(await fanOut(second, t.alice.id)).toBe(0);
    // another account's subscription is its own: the URL answers it for itself
    expect(await status(t.bob, other.id)).toEqual(expect.objectContaining({ status: 'active' }));
    expect(await fanOut(bobs, t.bob.id)).toBe(1);
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(2);
    // one retry, of the dead letter, resumes the account's subscriptions to the URL through the handshake
    const [dead] = await deliveries(t.alice, gone.id, '?status=dead');
    expect((await events().post(`/subscriptions/${gone.id}/deliveries/${dead!.id}/retry`).set('Authorization', t.alice.auth)).status).toBe(
      202,
    );
    expect((await status(t.alice, sibling.id)).status).toBe('validating');
    await runDeliveries();
    expect([(await status(t.alice, gone.id)).status, (await status(t.alice, sibling.id)).status]).toEqual(['active', 'active']);
    expect(receiver.delivered.map((e) => e.subject).sort()).toEqual([first, bobs].sort());
  });

  /** POST /subscriptions/{id}/validate as `account`: the URL's handshake again (docs/decisions/0483-validating-a-subscription-again.md). */
  const validate = (account: TestAccount, id: string) => events().post(`/subscriptions/${id}/validate`).set('Authorization', account.auth);
  const read = async (account: TestAccount, id: string) =>
    (await events().get(`/subscriptions/${id}`).set('Authorization', account.auth)).body as {
      status: string;
      statusMessage: string | null;
    };

  test('a subscription whose URL failed the handshake is validated again on request: active once the receiver answers, then delivered to', async () => {
    receiver.handshake = 'no-header';
    const sub = await subscribe(t.alice);
    await runDeliveries();
    await eventually(async () => expect((await read(t.alice, sub.id)).status).toBe('validation_failed'));
    // still refused: the handshake is made again, and fails again
    expect((await validate(t.alice, sub.id)).status).toBe(202);
    const before = receiver.requests.length;
    await runDeliveries();
    expect(receiver.requests.slice(before).map((r) => r.method)).toEqual(['OPTIONS']);
    expect(await read(t.alice, sub.id)).toMatchObject({
      status: 'validation_failed',
      statusMessage: expect.stringMatching(/WebHook-Allowed-Origin/),
    });
    // the receiver is fixed: validating, as GET shows it, until the dispatcher's next pass
    receiver.handshake = 'allow';
    const validating = await validate(t.alice, sub.id);
    expect(validating.status).toBe(202);
    expect(validating.body).toMatchObject({ id: sub.id, status: 'validating', statusMessage: expect.stringMatching(/validated again/) });
    expect(validating.body).toEqual(await read(t.alice, sub.id));
    // the answer is the subscription as read, tagged as a read is (docs/interface.md §1, concurrent changes)
    const readAfter = await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth);
    expect(validating.headers.etag).toBe(readAfter.headers.etag);
    // already validating: nothing changes
    const again = await validate(t.alice, sub.id);
    expect([again.status, again.body]).toEqual([202, validating.body]);
    const handshaken = receiver.requests.length;
    await runDeliveries();
    expect(receiver.requests.slice(handshaken).map((r) => r.method)).toEqual(['OPTIONS']);
    expect(await read(t.alice, sub.id)).toMatchObject({ status: 'active', statusMessage: null });
    // active: nothing to validate
    const active = await validate(t.alice, sub.id);
    expect([active.status, active.body.id]).toEqual([409, 'subscription_active']);
    expect((await read(t.alice, sub.id)).status).toBe('active');
    const field = await createField(t.alice);
    await eventually(() => expect(receiver.delivered.map((e) => e.subject)).toEqual([field]));
    // another account's subscription and an unknown one are 404, as for GET
    for (const [account, id] of [
      [t.bob, sub.id],
      [t.alice, crypto.randomUUID()],
    ] as const) {
      const res = await validate(account, id);
      expect([res.status, res.body.id]).toEqual([404, 'subscription_does_not_exist']);
    }
  });

  test('validating a subscription a 410 paused resumes the account’s others the 410 paused at the URL, through the handshake', async () => {
    // docs/decisions/0457-410-gone-retires-the-url-for-the-account.md: as a retry of its dead letter does
    const store = new DeliveryStore(t.fleet.db.knex);
    const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
    const gone = await subscribe(t.alice, { resources: [first] });
    const sibling = await subscribe(t.alice, { resources: [second] });
    await runDeliveries();
    const fanOut = (resource: string) =>
      store.fanOut({ event: fieldEvent(resource, 'created', nowMs), appId: crypto.randomUUID(), owner: t.alice.id }, new Date(nowMs));
    receiver.answer = (n) => (n === 1 ? 410 : 200);
    expect(await fanOut(first)).toBe(1);
    await runDeliveries();
    for (const id of [gone.id, sibling.id])
      expect(await read(t.alice, id)).toMatchObject({ status: 'paused', statusMessage: expect.stringMatching(/410 Gone/) });
    // the sibling, which has no dead letter to retry, is validated: both resume
    const resumed = await validate(t.alice, sibling.id);
    expect([resumed.status, resumed.body.status]).toEqual([202, 'validating']);
    expect((await read(t.alice, gone.id)).status).toBe('validating');
    const runs = await t.fleet.db.knex
      .withSchema('events')
      .table('subscriptions')
      .select('dead_in_a_row')
      .whereIn('id', [gone.id, sibling.id]);
    expect(runs).toEqual([{ dead_in_a_row: 0 }, { dead_in_a_row: 0 }]);
    const before = receiver.requests.length;
    await runDeliveries();
    expect(receiver.requests.slice(before).map((r) => r.method)).toEqual(['OPTIONS', 'OPTIONS']);
    expect([(await read(t.alice, gone.id)).status, (await read(t.alice, sibling.id)).status]).toEqual(['active', 'active']);
    expect(await fanOut(second)).toBe(1);
    await runDeliveries();
    expect(receiver.delivered.map((e) => e.subject)).toEqual([second]);
  });

  test('a resume goes by why its subscriptions were paused, not by what their message says: the 410’s others under any wording, not one dead letters paused', async () => {
    // docs/decisions/0494-why-a-subscription-is-paused-is-a-fact-of-its-own.md
    const store = new DeliveryStore(t.fleet.db.knex);
    const rows = () => t.fleet.db.knex.withSchema('events').table('subscriptions');
    const [first, second, third] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const gone = await subscribe(t.alice, { resources: [first] });
    const sibling = await subscribe(t.alice, { resources: [second] });
    const stalled = await subscribe(t.alice, { resources: [third] });
    await runDeliveries();
    const fanOut = (resource: string) =>
      store.fanOut({ event: fieldEvent(resource, 'created', nowMs), appId: crypto.randomUUID(), owner: t.alice.id }, new Date(nowMs));
    // the third is paused by its third dead letter in a row, sent to the same URL
    await rows().where({ id: stalled.id }).update({ dead_in_a_row: 2 });
    expect(await fanOut(third)).toBe(1);
    const [claimed] = await store.claimDeliveries(new Date(nowMs), new Date(nowMs + 30_000), 10, SENDS_PER_SUBSCRIPTION);
    const failed = { time: new Date(nowMs - DEAD_LETTER_AFTER_MS).toISOString(), statusCode: 500, error: null, durationMs: 1 };
    expect(
      await store.recordFailed({ ...claimed!, firstAttemptAt: new Date(nowMs - DEAD_LETTER_AFTER_MS) }, failed, new Date(nowMs), 1000),
    ).toBe('dead');
    // then a 410 to the first pauses it and the second, which was active
    receiver.answer = (n) => (n === 1 ? 410 : 200);
    expect(await fanOut(first)).toBe(1);
    await runDeliveries();
    const pausedBy = async () =>
      Object.fromEntries(
        (
          (await rows().select('id', 'status', 'paused_by').whereIn('id', [gone.id, sibling.id, stalled.id])) as Record<string, string>[]
        ).map((r) => [r.id === gone.id ? 'gone' : r.id === sibling.id ? 'sibling' : 'stalled', [r.status, r.paused_by]]),
      );
    expect(await pausedBy()).toEqual({
      gone: ['paused', 'gone'],
      sibling: ['paused', 'gone'],
      stalled: ['paused', 'dead_letters'],
    });
    expect((await read(t.alice, stalled.id)).statusMessage).toMatch(/3 dead letters/);
    // the message the sibling was paused with is in another wording (a release before this one's)
    await rows()
      .where({ id: sibling.id })
      .update({ status_message: 'paused: the URL answered 410 Gone, so nothing more is sent; retry the dead letter to resume' });
    const [dead] = await deliveries(t.alice, gone.id, '?status=dead');
    expect((await events().post(`/subscriptions/${gone.id}/deliveries/${dead!.id}/retry`).set('Authorization', t.alice.auth)).status).toBe(
      202,
    );
    expect(await pausedBy()).toEqual({
      gone: ['validating', null],
      sibling: ['validating', null],
      stalled: ['paused', 'dead_letters'],
    });
    await runDeliveries();
    expect(await pausedBy()).toEqual({
      gone: ['active', null],
      sibling: ['active', null],
      stalled: ['paused', 'dead_letters'],
    });
    // the one dead letters paused resumes on its own request, and is paused by nothing then
    expect((await validate(t.alice, stalled.id)).status).toBe(202);
    await runDeliveries();
    expect((await pausedBy()).stalled).toEqual(['active', null]);
  });

  test('the paused-by migration tells a 410’s pauses, in either wording they were stored with, from dead letters’; nothing else is paused by anything', async () => {
    const knex = t.fleet.db.knex;
    const schema = 'events_paused_by_migration';
    const migrations = eventsService.needs.database!.migrations;
    const before = migrations.filter((m) => m.name < pausedByMigration.name);
    await knex.raw('drop schema if exists ?? cascade', [schema]);
    try {
      await migrateSchema(knex, schema, before);
      const row = (status: string, message: string | null) => ({
        id: crypto.randomUUID(),
        account_id: t.alice.id,
        url: receiver.url,
        receiver: receiver.url,
        filter: '{}',
        description: '',
        secret: 'whsec_x',
        status,
        status_message: message,
        created_at: new Date(START),
        updated_at: new Date(START),
      });
      const rows = {
        gone: row(
          'paused',
          'paused: the URL answered 410 Gone, so nothing more is sent to it; retry the dead letter it made (of this or another of your subscriptions to the URL) to resume them',
        ),
        goneFirstWording: row('paused', 'paused: the URL answered 410 Gone, so nothing more is sent; retry the dead letter to resume'),
        deadLetters: row(
          'paused',
          'paused after 3 dead letters in a row; retry a dead letter, or validate the subscription again, to resume',
        ),
        deadLettersFirstWording: row('paused', 'paused after 3 dead letters in a row; retry a dead letter to resume'),
        resumed: row('validating', 'resumed: the URL is validated again (CloudEvents handshake) before deliveries are sent'),
        active: row('active', null),
        failed: row('validation_failed', 'validation request answered 410'),
      };
      await knex.withSchema(schema).table('subscriptions').insert(Object.values(rows));
      await migrateSchema(knex, schema, [...before, pausedByMigration]);
      const stored: { id: string; paused_by: string | null }[] = await knex
        .withSchema(schema)
        .table('subscriptions')
        .select('id', 'paused_by');
      const by = new Map(stored.map((r) => [r.id, r.paused_by]));
      expect(Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, by.get(r.id)]))).toEqual({
        gone: 'gone',
        goneFirstWording: 'gone',
        deadLetters: 'dead_letters',
        deadLettersFirstWording: 'dead_letters',
        resumed: null,
        active: null,
        failed: null,
      });
    } finally {
      await knex.raw('drop schema if exists ?? cascade', [schema]);
    }
  });

  test('a subscription paused by dead letters that were since deleted is validated again, its run of dead letters cleared', async () => {
    const { sub } = await pausedSubscription();
    nowMs += 30 * 24 * 3600_000 + 1000;
    await t.fleet.runBackground('events', 'webhook-retention');
    expect(await deliveries(t.alice, sub.id)).toEqual([]);
    receiver.answer = () => 200;
    const resumed = await validate(t.alice, sub.id);
    expect([resumed.status, resumed.body.status]).toEqual([202, 'validating']);
    const [row] = await t.fleet.db.knex.withSchema('events').table('subscriptions').select('dead_in_a_row').where({ id: sub.id });
    expect(row).toEqual({ dead_in_a_row: 0 });
    await runDeliveries();
    expect((await read(t.alice, sub.id)).status).toBe('active');
    const field = await createField(t.alice);
    await eventually(() => expect(receiver.delivered.map((e) => e.subject)).toContain(field));
  });

  test('a slow receiver holds back only its own subscription, which gets a bounded share of the sends in flight', async () => {
    const slow = new WebhookReceiver();
    await slow.start();
    slow.answer = () => 'hang';
    const ns = { namespaces: ['agriculture/fields'] };
    const slowSub = await subscribe(t.alice, ns, slow.url);
    const fastSub = await subscribe(t.alice, ns);
    const store = new DeliveryStore(t.fleet.db.knex);
    const fanOut = async () => {
      const event = fieldEvent(crypto.randomUUID(), 'created', nowMs);
      expect(await store.fanOut({ event, appId: crypto.randomUUID(), owner: t.alice.id }, new Date(nowMs))).toBe(2);
    };
    // a dispatcher whose sends to the slow receiver end only when the test ends
    const dispatcher = new WebhookDispatcher({
      store,
      sender: new WebhookSender(new AddressGuard(['127.0.0.1'], false), 60_000),
      now: () => new Date(nowMs),
      logger: createLogger({ level: 'silent' }),
      origin: 'fieldcast',
    });
    try {
      // ten resources' events at once: the slow receiver holds its share, the fast one gets all
      for (let i = 0; i < 10; i++) await fanOut();
      dispatcher.kick();
      await eventually(() => expect(receiver.delivered).toHaveLength(10), 5_000);
      await eventually(() => expect(slow.deliveries).toHaveLength(SENDS_PER_SUBSCRIPTION), 5_000);
      // a new event while the slow sends hang is sent to the fast receiver at once
      await fanOut();
      dispatcher.kick();
      await eventually(() => expect(receiver.delivered).toHaveLength(11), 5_000);
      expect(slow.deliveries).toHaveLength(SENDS_PER_SUBSCRIPTION);
      expect(slow.deliveries.every((r) => r.status === 'hung')).toBe(true);
      // the receiver has the eleventh before the dispatcher records its answer
      await eventually(async () => expect(await deliveries(t.alice, fastSub.id, '?status=delivered')).toHaveLength(11), 5_000);
      expect((await deliveries(t.alice, slowSub.id, '?status=delivered')).length).toBe(0);
    } finally {
      await slow.stop();
      await dispatcher.stop();
    }
  });

  test('the create answer’s createdTime is the one stored', async () => {
    ticking = true;
    const sub = (await subscribe(t.alice)) as unknown as { id: string; createdTime: string };
    const read = await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth);
    const [listed] = (await events().get('/subscriptions').set('Authorization', t.alice.auth)).body as { createdTime: string }[];
    expect([read.body.createdTime, listed!.createdTime]).toEqual([sub.createdTime, sub.createdTime]);
  });

  test('deliveries are paged newest first by cursor: Link rel="next" keeps the status asked for; an unknown cursor is 400', async () => {
    const sub = await subscribe(t.alice);
    for (let i = 0; i < 3; i++) await createField(t.alice);
    await eventually(async () => expect(await deliveries(t.alice, sub.id, '?status=delivered')).toHaveLength(3));
    const all = await deliveries(t.alice, sub.id);
    const page = async (url: string) => {
      const res = await events().get(url).set('Authorization', t.alice.auth);
      expect(res.status).toBe(200);
      const next = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
      return { ids: (res.body as DeliveryView[]).map((d) => d.id), next };
    };
    const first = await page(`/subscriptions/${sub.id}/deliveries?limit=2&status=delivered`);
    expect(first.ids).toEqual(all.slice(0, 2).map((d) => d.id));
    expect(new URL(first.next!, 'http://x').searchParams.get('status')).toBe('delivered');
    const second = await page(first.next!);
    expect([second.ids, second.next]).toEqual([[all[2]!.id], undefined]);
    expect((await page(`/subscriptions/${sub.id}/deliveries?status=pending&limit=2`)).ids).toEqual([]);
    const unknown = await events()
      .get(`/subscriptions/${sub.id}/deliveries?after=${crypto.randomUUID()}`)
      .set('Authorization', t.alice.auth);
    expect([unknown.status, unknown.body.id, unknown.body.errors[0].path]).toEqual([400, 'unknown_cursor', 'after']);
  });

  test('a rotated secret signs from then on, the one it replaced beside it for a day or as asked; bad input changes nothing', async () => {
    const sub = await subscribe(t.alice);
    /** the signatures on the nth delivery (waited for), and which secrets verify it */
    const nth = async (n: number, ...secrets: string[]) => {
      await createField(t.alice);
      await eventually(() => expect(receiver.delivered).toHaveLength(n));
      const { body, headers } = receiver.deliveries[n - 1]!;
      const nowSeconds = Number(headers['webhook-timestamp']);
      const verifies = await Promise.all(secrets.map((s) => verifyWebhook(s, body, headers, { nowSeconds })));
      return { signatures: String(headers['webhook-signature']).split(' ').length, verifies };
    };
    const rotate = (body?: object, account = t.alice) => {
      const req = events().post(`/subscriptions/${sub.id}/secret`).set('Authorization', account.auth);
      return body === undefined ? req : req.send(body);
    };
    expect(await nth(1, sub.secret)).toEqual({ signatures: 1, verifies: [true] });

    const first = await rotate();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: sub.id,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      previousSecretExpiresTime: '2026-06-02T00:00:00.000Z',
    });
    expect(first.body.secret).not.toBe(sub.secret);
    expect((await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body.secret).toBeUndefined();
    expect(await nth(2, first.body.secret, sub.secret)).toEqual({ signatures: 2, verifies: [true, true] });
    // a day later only the new secret signs
    nowMs = START + 24 * 3600_000;
    expect(await nth(3, first.body.secret, sub.secret)).toEqual({ signatures: 1, verifies: [true, false] });

    // refused: nothing changes, and another account's subscription is not there
    for (const bad of [
      { previousSecretExpiresIn: -1 },
      { previousSecretExpiresIn: 86_401 },
      { previousSecretExpiresIn: 1.5 },
      { keep: 1 },
    ]) {
      const res = await rotate(bad);
      expect([JSON.stringify(bad), res.status, res.body.id]).toEqual([JSON.stringify(bad), 400, 'invalid_body']);
    }
    expect((await rotate({}, t.bob)).status).toBe(404);
    expect(await nth(4, first.body.secret)).toEqual({ signatures: 1, verifies: [true] });

    // a leaked secret ends at once
    const second = await rotate({ previousSecretExpiresIn: 0 });
    expect(second.body.previousSecretExpiresTime).toBeNull();
    expect(await nth(5, second.body.secret, first.body.secret)).toEqual({ signatures: 1, verifies: [true, false] });
  });

  test('no delivery of another account’s events; another account’s subscription is 404', async () => {
    const sub = await subscribe(t.alice, {});
    await createField(t.bob);
    const mine = await createField(t.alice);
    await eventually(() => expect(receiver.delivered.some((e) => e.subject === mine)).toBe(true));
    await runDeliveries();
    const bobsEvents = (await events().get('/events').set('Authorization', t.bob.auth)).body as { id: string }[];
    const delivered = new Set(receiver.delivered.map((e) => e.id));
    expect(bobsEvents.length).toBeGreaterThan(0);
    for (const e of bobsEvents) expect(delivered.has(e.id)).toBe(false);
    for (const path of [`/subscriptions/${sub.id}`, `/subscriptions/${sub.id}/deliveries`]) {
      const res = await events().get(path).set('Authorization', t.bob.auth);
      expect([res.status, res.body.id]).toEqual([404, 'subscription_does_not_exist']);
    }
    const [d] = await deliveries(t.alice, sub.id);
    expect((await events().post(`/subscriptions/${sub.id}/deliveries/${d!.id}/retry`).set('Authorization', t.bob.auth)).status).toBe(404);
    expect((await events().delete(`/subscriptions/${sub.id}`).set('Authorization', t.bob.auth)).status).toBe(404);
    expect((await events().delete(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).status).toBe(200);
  });

  test('filters: apps, resources and namespace prefixes must all match', async () => {
    const one = await createField(t.alice);
    await eventually(async () => expect((await events().get('/events').set('Authorization', t.alice.auth)).body).toHaveLength(1));
    await subscribe(t.alice, { apps: ['agriculture'], resources: [one], namespaces: ['agriculture/fields/updated'] });
    await createField(t.alice);
    const agriculture = () => request(t.fleet.app('agriculture'));
    expect((await agriculture().put(`/fields/${one}`).set('Authorization', t.alice.auth).send(fieldBody('x'))).status).toBe(200);
    await eventually(() => expect(receiver.delivered).toHaveLength(1));
    expect(receiver.delivered[0]).toMatchObject({ type: 'fieldcast.agriculture.fields.updated', subject: one });
  });

  test('bad input is a problem naming the path, and nothing is stored', async () => {
    const post = (body: object) => events().post('/subscriptions').set('Authorization', t.alice.auth).send(body);
    for (const [body, status, id, path] of [
      [{ url: 'ftp://example.com/x' }, 400, 'invalid_body', 'url'],
      [{ url: receiver.url, filter: { app: ['x'] } }, 400, 'invalid_body', 'filter'],
      [{ url: receiver.url, filter: { resources: ['nope'] } }, 400, 'invalid_body', 'filter.resources.0'],
      [{ url: 'http://10.1.2.3/hook' }, 422, 'webhook_url_not_allowed', 'url'],
      [{ url: 'http://[::1]:8080/hook' }, 422, 'webhook_url_not_allowed', 'url'],
      [{ url: 'http://user:pw@127.0.0.1/hook' }, 422, 'invalid_webhook_url', 'url'],
      // a URL is text (docs/decisions/0040-no-5xx-from-input.md): PostgreSQL refuses U+0000, a lone surrogate has no UTF-8 form
      [{ url: 'https://hooks.example.com/a\u0000b' }, 400, 'invalid_body', 'url'],
      [{ url: 'https://hooks.example.com/\ud800' }, 400, 'invalid_body', 'url'],
      // https only (HTTP 1.1 Web Hooks for Event Delivery 2.1), but to what FIELDCAST_WEBHOOK_ALLOW_PRIVATE names
      [{ url: 'http://192.0.2.1/x' }, 422, 'webhook_url_not_allowed', 'url'],
      [{ url: 'http://hooks.example.com/x' }, 422, 'webhook_url_not_allowed', 'url'],
      [{ url: 'http://127.0.0.2/x' }, 422, 'webhook_url_not_allowed', 'url'],
      // documentation ranges and NAT64 wrapping a private address (RFC 6890, RFC 6052)
      [{ url: 'https://192.0.2.1/x' }, 422, 'webhook_url_not_allowed', 'url'],
      [{ url: 'https://198.51.100.1/x' }, 422, 'webhook_url_not_allowed', 'url'],
      [{ url: 'https://203.0.113.9/x' }, 422, 'webhook_url_not_allowed', 'url'],
      [{ url: 'https://[64:ff9b::10.0.0.1]/x' }, 422, 'webhook_url_not_allowed', 'url'],
      // an empty list would match nothing: leave it out to take everything
      [{ url: receiver.url, filter: { namespaces: [] } }, 422, 'empty_filter_list', 'filter.namespaces'],
      [{ url: receiver.url, filter: { apps: ['agriculture'], resources: [] } }, 422, 'empty_filter_list', 'filter.resources'],
    ] as const) {
      const res = await post(body);
      expect([body, res.status, res.body.id]).toEqual([body, status, id]);
      expect(res.body.errors[0].path).toBe(path);
    }
    expect((await events().get('/subscriptions').set('Authorization', t.alice.auth)).body).toEqual([]);
    const missing = await events().get(`/subscriptions/${crypto.randomUUID()}/deliveries`).set('Authorization', t.alice.auth);
    expect([missing.status, missing.body.id]).toEqual([404, 'subscription_does_not_exist']);
  });
});

describe('the receiver’s allowed rate (HTTP 1.1 Web Hooks for Event Delivery 4.2.2)', () => {
  const store = () => new DeliveryStore(t.fleet.db.knex);
  const dispatcher = (now: () => Date) =>
    new WebhookDispatcher({
      store: store(),
      sender: new WebhookSender(new AddressGuard(['127.0.0.1'], false), 2000),
      now,
      logger: createLogger({ level: 'silent' }),
      origin: 'fieldcast',
    });

  /** An event of alice's about `resource`, fanned out to her subscriptions at the clock's time, added without waking any dispatcher. */
  async function fanOut(resource: string, action: string): Promise<string> {
    const event = fieldEvent(resource, action, nowMs);
    expect(await store().fanOut({ event, appId: crypto.randomUUID(), owner: t.alice.id }, new Date(nowMs))).toBe(1);
    return event.id;
  }

  /** A subscription of alice's to the receiver, through its handshake. */
  async function validated(): Promise<{ id: string; status: string; statusMessage: string | null }> {
    const sub = await subscribe(t.alice);
    await runDeliveries();
    return (await events().get(`/subscriptions/${sub.id}`).set('Authorization', t.alice.auth)).body;
  }

  test('a receiver that allows 2 a minute gets at most 2 in any minute of the delivery clock, whichever replica sends; the rest wait and go in order', async () => {
    receiver.allowedRate = '2';
    const sub = await validated();
    expect(sub.status).toBe('active');
    // no rate of our own is asked for (docs/decisions/0396-receivers-allowed-rate.md)
    expect(receiver.requests.map((r) => [r.method, r.headers['webhook-request-rate']])).toEqual([['OPTIONS', undefined]]);
    // two resources' events: each resource's in order, and no resource waits for the other's
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const ids: string[] = [];
    for (const [resource, action] of [
      [a, 'created'],
      [b, 'created'],
      [a, 'updated'],
      [b, 'updated'],
      [a, 'deleted'],
    ] as const)
      ids.push(await fanOut(resource, action));
    // a second replica of the events area, passing at the same instants as the first
    const other = dispatcher(() => new Date(nowMs));
    try {
      for (let s = 0; s <= 150; s += 5) {
        nowMs = START + s * 1000;
        await runDeliveries();
        await other.sweep(new Date(nowMs));
        await other.settled();
        if (s === 0) {
          // the owner reads when the waiting ones can go at the earliest
          const pending = await deliveries(t.alice, sub.id, '?status=pending');
          expect(pending.map((d) => d.nextAttemptTime)).toEqual(Array(4).fill(new Date(START + 30_000).toISOString()));
        }
      }
    } finally {
      await other.stop();
    }
    // evenly paced: a request every 30 s, so no minute holds more than 2; none dropped, none out of order
    const sentAt = receiver.deliveries.map((r) => Number(r.headers['webhook-timestamp']) - START / 1000);
    expect(sentAt).toEqual([0, 30, 60, 90, 120]);
    expect(receiver.delivered.map((e) => e.id)).toEqual(ids);
    expect((await deliveries(t.alice, sub.id)).map((d) => [d.status, d.attemptCount])).toEqual(Array(5).fill(['delivered', 1]));
  });

  test('an asterisk means no pacing', async () => {
    receiver.allowedRate = '*';
    expect((await validated()).status).toBe('active');
    for (let i = 0; i < 4; i++) await fanOut(crypto.randomUUID(), 'created');
    await runDeliveries();
    expect(receiver.delivered).toHaveLength(4);
  });

  test('a rate the header cannot hold grants nothing: the handshake fails, saying why, and nothing is sent', async () => {
    for (const value of ['0', 'ten', '1.5', '2, 3']) {
      receiver.allowedRate = value;
      const sub = await validated();
      expect([value, sub.status, sub.statusMessage]).toEqual([
        value,
        'validation_failed',
        expect.stringContaining(`WebHook-Allowed-Rate: ${JSON.stringify(value)}`),
      ]);
    }
    await createField(t.alice);
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(0);
  });

  // A replica whose clock runs, woken once: no background task passes, so each next request is sent
  // because the dispatcher wakes itself when the pause the rate asks for ends. A clock slower than
  // the timers stands for the event loop's time running ahead of it (the loop reads its time before
  // the work that arms a timer): each wake fires with part of the pause still to go.
  test.each([
    ['a rate faster than the background task’s second is kept to, not slowed to one request a second', 1],
    ['a clock behind the timers still wakes the dispatcher when the pause ends', 0.5],
  ])('%s', async (_, clockSpeed) => {
    receiver.allowedRate = '600';
    expect((await validated()).status).toBe('active');
    for (let i = 0; i < 3; i++) await fanOut(crypto.randomUUID(), 'created');
    const began = Date.now();
    const own = dispatcher(() => new Date(nowMs + (Date.now() - began) * clockSpeed));
    own.kick();
    try {
      await eventually(() => expect(receiver.delivered).toHaveLength(3), 5_000);
    } finally {
      await own.stop();
    }
    // 100 ms of the dispatcher's clock between requests
    expect((Date.now() - began) * clockSpeed).toBeGreaterThanOrEqual(200);
  });

  /** A public event about a new resource, fanned out at the clock's time to every subscription that takes it. */
  async function fanOutPublic(expected: number): Promise<string> {
    const event = fieldEvent(crypto.randomUUID(), 'created', nowMs);
    expect(await store().fanOut({ event, appId: crypto.randomUUID(), owner: null }, new Date(nowMs))).toBe(expected);
    return event.id;
  }

  /** Background passes every 5 s of the delivery clock from START to START + `seconds`. */
  async function passesUntil(seconds: number): Promise<void> {
    for (let s = 0; s <= seconds; s += 5) {
      nowMs = START + s * 1000;
      await runDeliveries();
    }
  }

  /** When each POST to `path` was signed, in seconds from START. */
  const postedAt = (path: string) =>
    receiver.deliveries.filter((r) => r.path === path).map((r) => Number(r.headers['webhook-timestamp']) - START / 1000);

  const subscription = async (account: TestAccount, id: string) =>
    (await events().get(`/subscriptions/${id}`).set('Authorization', account.auth)).body as { status: string; allowedRate: number | null };

  test('the rate is the URL’s: two accounts’ subscriptions to it share it, however the URL is written; another path is another receiver', async () => {
    receiver.allowedRate = '2';
    const url = new URL(receiver.url);
    const alices = await subscribe(t.alice, FIELDS, receiver.url);
    // the same URL once parsed (RFC 3986 section 6.2.2: dot segments; the fragment is never sent)
    const bobs = await subscribe(t.bob, FIELDS, `http://${url.host}/./hook#bob`);
    const other = await subscribe(t.alice, FIELDS, `http://${url.host}/hook?tenant=2`);
    await runDeliveries();
    for (const [account, sub] of [
      [t.alice, alices],
      [t.bob, bobs],
      [t.alice, other],
    ] as const)
      expect(await subscription(account, sub.id)).toMatchObject({ status: 'active', allowedRate: 2 });
    await fanOutPublic(3);
    await fanOutPublic(3);
    await passesUntil(150);
    // four requests to /hook, 30 s apart: the 2 a minute its receiver allowed, not 2 per subscription
    expect(postedAt('/hook')).toEqual([0, 30, 60, 90]);
    expect(postedAt('/hook?tenant=2')).toEqual([0, 30]);
    expect(receiver.delivered).toHaveLength(6);
  });

  test('accounts take turns at a paced URL: another account’s backlog, over any number of subscriptions, does not hold back an account’s newer events', async () => {
    receiver.allowedRate = '6';
    // alice's two subscriptions to the URL and bob's one, through their handshakes
    const alices = [await subscribe(t.alice), await subscribe(t.alice)];
    const bobs = await subscribe(t.bob);
    await runDeliveries();
    for (const [account, sub] of [
      [t.alice, alices[0]!],
      [t.alice, alices[1]!],
      [t.bob, bobs],
    ] as const)
      expect(await subscription(account, sub.id)).toMatchObject({ status: 'active', allowedRate: 6 });
    /** An event of `account`'s about a new field, fanned out at the clock's time to each of its `subscriptions`. */
    const fanOutOf = async (account: TestAccount, subscriptions: number): Promise<string> => {
      const event = fieldEvent(crypto.randomUUID(), 'created', nowMs);
      expect(await store().fanOut({ event, appId: crypto.randomUUID(), owner: account.id }, new Date(nowMs))).toBe(subscriptions);
      return event.id;
    };
    // alice's backlog: 20 deliveries due at START, bob's 2 due a second later
    const alicesEvents: string[] = [];
    for (let i = 0; i < 10; i++) alicesEvents.push(await fanOutOf(t.alice, 2));
    nowMs = START + 1000;
    const bobsEvents = [await fanOutOf(t.bob, 1), await fanOutOf(t.bob, 1)];
    await passesUntil(230);
    const whose = receiver.delivered.map((e) => (bobsEvents.includes(e.id) ? 'bob' : 'alice'));
    // one turn each while both have deliveries due, then alice's alone: bob's two go second and fourth, not after alice's 20
    expect(whose).toEqual(['alice', 'bob', 'alice', 'bob', ...Array(18).fill('alice')]);
    // still 6 a minute, and each account's own deliveries in the order they fell due
    expect(postedAt('/hook')).toEqual(Array.from({ length: 22 }, (_, i) => i * 10));
    expect(receiver.delivered.filter((e) => bobsEvents.includes(e.id)).map((e) => e.id)).toEqual(bobsEvents);
    const alicesOrder = receiver.delivered.filter((e) => !bobsEvents.includes(e.id)).map((e) => alicesEvents.indexOf(e.id));
    expect(alicesOrder).toEqual([...alicesOrder].sort((a, b) => a - b));
  });

  test('at a paced URL an account whose subscription has all the requests in flight it may passes its turn on', async () => {
    receiver.allowedRate = '6';
    const whose = new Map([
      [(await subscribe(t.alice)).id, 'alice'],
      [(await subscribe(t.bob)).id, 'bob'],
    ]);
    await runDeliveries();
    for (const account of [t.alice, t.alice, t.bob, t.bob]) {
      const event = fieldEvent(crypto.randomUUID(), 'created', nowMs);
      expect(await store().fanOut({ event, appId: crypto.randomUUID(), owner: account.id }, new Date(nowMs))).toBe(1);
    }
    /** A claim `s` seconds from START, one request in flight allowed per subscription, its leases lasting past the test. */
    const claim = async (s: number) => {
      nowMs = START + s * 1000;
      return store().claimDeliveries(new Date(nowMs), new Date(START + 600_000), 10, 1);
    };
    const first = await claim(0);
    const second = await claim(10);
    // the second account's request is answered; the first's is still in flight
    const attempt = { time: new Date(nowMs).toISOString(), statusCode: 200, error: null, durationMs: 1 };
    await store().recordDelivered(
      second.map((delivery) => ({ delivery, attempt })),
      new Date(nowMs),
    );
    const third = await claim(20);
    const accounts = [first, second, third].map((claimed) => claimed.map((d) => whose.get(d.subscriptionId)));
    const [x, y] = [accounts[0]![0], accounts[1]![0]];
    expect(new Set([x, y])).toEqual(new Set(['alice', 'bob']));
    // the first account's turn again, but it may send nothing more: the other's next goes, not nothing
    expect(accounts).toEqual([[x], [y], [y]]);
  });

  test('a Retry-After holds every subscription to the URL, another account’s too', async () => {
    receiver.answer = (n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '120' } } : 200);
    const alices = await validated();
    const bobs = await subscribe(t.bob);
    await runDeliveries();
    await fanOut(crypto.randomUUID(), 'created');
    await runDeliveries();
    expect(receiver.deliveries.map((r) => r.status)).toEqual([429]);
    // bob's own event, to the URL that asked for two minutes of quiet
    const event = fieldEvent(crypto.randomUUID(), 'created', nowMs);
    expect(await store().fanOut({ event, appId: crypto.randomUUID(), owner: t.bob.id }, new Date(nowMs))).toBe(1);
    nowMs += 60_000;
    await runDeliveries();
    expect(receiver.deliveries).toHaveLength(1);
    expect((await deliveries(t.bob, bobs.id))[0]!.nextAttemptTime).toBe(new Date(START + 120_000).toISOString());
    nowMs = START + 120_000;
    await runDeliveries();
    expect(receiver.deliveries.map((r) => r.status)).toEqual([429, 200, 200]);
    expect((await deliveries(t.alice, alices.id)).map((d) => d.status)).toEqual(['delivered']);
  });

  test('the view shows the rate deliveries keep to: none for *, and a later handshake with the URL changes it for every subscription to it', async () => {
    receiver.allowedRate = '*';
    const first = await validated();
    expect(await subscription(t.alice, first.id)).toMatchObject({ status: 'active', allowedRate: null });
    receiver.allowedRate = '12';
    const second = await validated();
    for (const id of [first.id, second.id]) expect(await subscription(t.alice, id)).toMatchObject({ allowedRate: 12 });
    const list = await events().get('/subscriptions').set('Authorization', t.alice.auth);
    expect(list.body.map((s: { allowedRate: number | null }) => s.allowedRate)).toEqual([12, 12]);
  });

  test('a receiver whose rate was never read (a subscription validated before rates were kept) is asked again, and paced from its answer', async () => {
    const sub = await validated();
    // what the receivers migration leaves for a URL whose subscriptions have no rate on record
    await t.fleet.db.knex.withSchema('events').table('receivers').update({ rate_read_at: null });
    receiver.allowedRate = '2';
    for (let i = 0; i < 3; i++) await fanOut(crypto.randomUUID(), 'created');
    await passesUntil(90);
    expect(receiver.requests.filter((r) => r.method === 'OPTIONS')).toHaveLength(2);
    expect(postedAt('/hook')).toEqual([0, 30, 60]);
    expect(await subscription(t.alice, sub.id)).toMatchObject({ status: 'active', allowedRate: 2 });
  });

  test('a receiver that gives no readable rate when asked again keeps its deliveries, unpaced, and is asked again an hour later', async () => {
    const sub = await validated();
    await t.fleet.db.knex.withSchema('events').table('receivers').update({ rate_read_at: null });
    receiver.handshake = 'no-header';
    const options = () => receiver.requests.filter((r) => r.method === 'OPTIONS').length;
    for (let i = 0; i < 2; i++) await fanOut(crypto.randomUUID(), 'created');
    await runDeliveries();
    expect([options(), receiver.delivered.length]).toEqual([2, 2]);
    nowMs = START + 3599_000;
    await runDeliveries();
    expect(options()).toBe(2);
    nowMs = START + 3600_000;
    receiver.handshake = 'allow';
    receiver.allowedRate = '6';
    await runDeliveries();
    expect(options()).toBe(3);
    expect(await subscription(t.alice, sub.id)).toMatchObject({ status: 'active', statusMessage: null, allowedRate: 6 });
  });

  test('while one replica asks a receiver for its rate, no replica sends to it; then each paces it by the answer', async () => {
    // docs/decisions/0495-a-receiver-asked-for-its-rate-is-held-in-the-database.md
    await validated();
    await t.fleet.db.knex.withSchema('events').table('receivers').update({ rate_read_at: null });
    receiver.allowedRate = '2';
    for (let i = 0; i < 2; i++) await fanOut(crypto.randomUUID(), 'created');
    // a replica whose handshakes wait for the test: it claims the ask and holds it open
    const sender = new WebhookSender(new AddressGuard(['127.0.0.1'], false), 2000);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const asking = new WebhookDispatcher({
      store: store(),
      sender: {
        send: async (req: SendRequest) => {
          if (req.method === 'OPTIONS') await answered;
          return sender.send(req);
        },
        close: () => sender.close(),
      } as unknown as WebhookSender,
      now: () => new Date(nowMs),
      logger: createLogger({ level: 'silent' }),
      origin: 'fieldcast',
    });
    try {
      expect(await asking.sweep(new Date(nowMs))).toBe(0);
      // the other replica (the fleet's own dispatcher) neither asks again nor sends while it is asked
      for (const s of [0, 5]) {
        nowMs = START + s * 1000;
        await runDeliveries();
      }
      expect(receiver.requests.map((r) => r.method)).toEqual(['OPTIONS']);
      answer();
      await asking.settled();
      nowMs = START + 35_000;
      await runDeliveries();
    } finally {
      answer();
      await asking.stop();
    }
    expect(receiver.requests.filter((r) => r.method === 'OPTIONS')).toHaveLength(2);
    expect(postedAt('/hook')).toEqual([5, 35]);
  });

  test('an ask whose replica died holds the receiver’s deliveries only until its lease ends; then the receiver is asked again', async () => {
    await validated();
    await t.fleet.db.knex.withSchema('events').table('receivers').update({ rate_read_at: null });
    receiver.allowedRate = '2';
    for (let i = 0; i < 2; i++) await fanOut(crypto.randomUUID(), 'created');
    // a replica claims the ask for 30 s and is gone before it asks
    expect(await store().claimRateAsks(new Date(nowMs), new Date(nowMs + 30_000), 20)).toEqual([receiver.url]);
    nowMs = START + 29_000;
    await runDeliveries();
    expect(receiver.requests.map((r) => r.method)).toEqual(['OPTIONS']);
    nowMs = START + 30_000;
    await runDeliveries();
    expect(receiver.requests.filter((r) => r.method === 'OPTIONS')).toHaveLength(2);
    expect(postedAt('/hook')).toEqual([30]);
  });

  test('the receivers migration keeps each URL’s strictest rate and longest hold, and has a URL asked again where a subscription had no rate on record', async () => {
    const knex = t.fleet.db.knex;
    const schema = 'events_receivers_migration';
    // the area's migrations up to the receivers'
    const migrations = eventsService.needs.database!.migrations;
    const before = migrations.slice(0, migrations.indexOf(receiversMigration));
    await knex.raw('drop schema if exists ?? cascade', [schema]);
    try {
      await migrateSchema(knex, schema, before);
      const at = (s: number) => new Date(START + s * 1000);
      const row = (url: string, status: string, rate: number | null, held: Date | null) => ({
        id: crypto.randomUUID(),
        account_id: t.alice.id,
        url,
        filter: '{}',
        description: '',
        secret: 'whsec_x',
        status,
        created_at: at(0),
        updated_at: at(0),
        allowed_rate: rate,
        held_until: held,
      });
      const rows = [
        row('https://a.example/hook', 'active', 5, at(10)),
        row('HTTPS://A.example:443/hook#x', 'paused', 2, at(60)),
        row('https://b.example/hook', 'active', null, null),
        row('https://c.example/x', 'validating', null, null),
        row('https://d.example/hook', 'active', 3, null),
        row('https://d.example/hook', 'active', null, null),
      ];
      await knex.withSchema(schema).table('subscriptions').insert(rows);
      await migrateSchema(knex, schema, [...before, receiversMigration]);
      const receivers: { url: string; allowed_rate: number | null; held_until: Date | null; rate_read_at: Date | null }[] = await knex
        .withSchema(schema)
        .table('receivers')
        .orderBy('url');
      expect(receivers.map((r) => [r.url, r.allowed_rate, r.held_until?.toISOString() ?? null, r.rate_read_at !== null])).toEqual([
        ['https://a.example/hook', 2, at(60).toISOString(), true],
        ['https://b.example/hook', null, null, false],
        ['https://c.example/x', null, null, false],
        ['https://d.example/hook', 3, null, false],
      ]);
      const subscriptions: Record<string, unknown>[] = await knex.withSchema(schema).table('subscriptions').orderBy('url');
      expect(new Set(subscriptions.map((s) => s.receiver))).toEqual(new Set(receivers.map((r) => r.url)));
      // kept for the previous release's replicas, which read them until they are replaced
      expect(subscriptions.map((s) => s.allowed_rate)).toEqual(expect.arrayContaining([5, 2, 3, null]));
      expect(subscriptions.map((s) => (s.held_until as Date | null)?.toISOString() ?? null)).toEqual(
        expect.arrayContaining([at(10).toISOString(), at(60).toISOString(), null]),
      );
    } finally {
      await knex.raw('drop schema if exists ?? cascade', [schema]);
    }
  });
});

describe('a rolling update: the previous release’s replicas beside the new ones (docs/decisions/0419-migrations-keep-the-previous-release-working.md)', () => {
  const store = () => new DeliveryStore(t.fleet.db.knex);
  const previous = () => previousRelease(t.fleet.db.knex);
  const subscription = async (account: TestAccount, id: string) =>
    (await events().get(`/subscriptions/${id}`).set('Authorization', account.auth)).body as { status: string; allowedRate: number | null };
  const options = () => receiver.requests.filter((r) => r.method === 'OPTIONS');
  const postedTo = (path: string) => receiver.deliveries.filter((r) => r.path === path).length;

  /** An event of `account`'s about a new field, fanned out at the clock's time, added without waking any dispatcher. */
  async function fanOut(account: TestAccount, expected = 1): Promise<void> {
    const event = fieldEvent(crypto.randomUUID(), 'created', nowMs);
    expect(await store().fanOut({ event, appId: crypto.randomUUID(), owner: account.id }, new Date(nowMs))).toBe(expected);
  }

  test('after the receivers migration the previous release still creates a subscription, validates it, holds it and claims its deliveries', async () => {
    const id = crypto.randomUUID();
    await previous().createSubscription({ id, accountId: t.alice.id, url: receiver.url, now: new Date(nowMs) });
    await previous().recordValidation(id, 2);
    await fanOut(t.alice);
    const claimed = await previous().claimDeliveries(new Date(nowMs), new Date(nowMs + 30_000), 10, SENDS_PER_SUBSCRIPTION);
    expect(claimed.map((d) => d.url)).toEqual([receiver.url]);
    await previous().hold(id, new Date(nowMs + 60_000));
  });

  test('a subscription the previous release created is adopted by the new dispatcher: its receiver named, then validated, paced by the handshake and delivered to', async () => {
    const id = crypto.randomUUID();
    await previous().createSubscription({ id, accountId: t.alice.id, url: `${receiver.url}#old`, now: new Date(nowMs) });
    // not validated before it names its receiver, which the validation's outcome is kept on
    expect(await store().claimValidations(new Date(nowMs), new Date(nowMs + 30_000), 20)).toEqual([]);
    receiver.allowedRate = '2';
    await fanOut(t.alice);
    await fanOut(t.alice);
    for (const s of [0, 5, 30]) {
      nowMs = START + s * 1000;
      await runDeliveries();
    }
    expect(options()).toHaveLength(1);
    expect(receiver.deliveries.map((r) => Number(r.headers['webhook-timestamp']) - START / 1000)).toEqual([0, 30]);
    expect(await subscription(t.alice, id)).toMatchObject({ status: 'active', allowedRate: 2 });
    expect(await t.fleet.db.knex.withSchema('events').table('subscriptions').where({ id }).first('receiver')).toEqual({
      receiver: receiver.url,
    });
  });

  test('one the previous release validated, and one the new release created that it validated, are delivered to, their receivers asked for the rate', async () => {
    const old = crypto.randomUUID();
    await previous().createSubscription({ id: old, accountId: t.alice.id, url: receiver.url, now: new Date(nowMs) });
    await previous().recordValidation(old, null);
    const created = await subscribe(t.bob, FIELDS, `${receiver.url}?bob`);
    await previous().recordValidation(created.id, 5);
    receiver.allowedRate = '2';
    await fanOut(t.alice);
    await fanOut(t.bob);
    await runDeliveries();
    expect(
      options()
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/hook', '/hook?bob']);
    expect([postedTo('/hook'), postedTo('/hook?bob')]).toEqual([1, 1]);
    expect(await subscription(t.alice, old)).toMatchObject({ status: 'active', allowedRate: 2 });
    expect(await subscription(t.bob, created.id)).toMatchObject({ status: 'active', allowedRate: 2 });
  });
});
