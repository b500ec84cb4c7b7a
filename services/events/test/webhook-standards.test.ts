import { createHmac, timingSafeEqual } from 'node:crypto';
import request from 'supertest';
import { agricultureService } from '@fieldcast/agriculture';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { eventsService } from '../src/definition.js';
import { fieldBody } from './helpers.js';
import { type Received, WebhookReceiver } from './webhook-receiver.js';

/**
 * A subscriber's view of a delivery, checked from the standards alone and not from the service's
 * own code: the signature as Standard Webhooks defines it, the message as CloudEvents 1.0 and its
 * HTTP binding define it.
 */
const t = useTestFleet([agricultureService, eventsService], { webhookAllowPrivate: ['127.0.0.1'] });

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = new WebhookReceiver();
  await receiver.start();
});
afterEach(() => receiver.stop());

const events = () => request(t.fleet.app('events'));
const agriculture = () => request(t.fleet.app('agriculture'));

/**
 * Standard Webhooks, "Verifying webhooks": the signed content is `${webhook-id}.${webhook-timestamp}.${body}`,
 * the key the base64 after `whsec_`, the signature `v1,` and the base64 HMAC-SHA256; the header may
 * carry several, space-delimited. Which of `secrets` signed this request.
 */
function signedBy(secrets: string[], received: Received): boolean[] {
  const id = String(received.headers['webhook-id']);
  const timestamp = String(received.headers['webhook-timestamp']);
  const given = String(received.headers['webhook-signature'])
    .split(' ')
    .map((s) => {
      const [version, signature] = s.split(',');
      expect(version).toBe('v1');
      return Buffer.from(signature!, 'base64');
    });
  return secrets.map((secret) => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest();
    return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
  });
}

test('a field created, updated and deleted: three CloudEvents in order, each signed as Standard Webhooks says, data the Event a read shows', async () => {
  const made = await events()
    .post('/subscriptions')
    .set('Authorization', t.alice.auth)
    .send({ url: receiver.url, filter: { namespaces: ['agriculture/fields'] } });
  expect(made.status).toBe(201);
  const secret = made.body.secret as string;
  expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

  const field = (await agriculture().post('/fields').set('Authorization', t.alice.auth).send(fieldBody('a'))).body.id as string;
  expect((await agriculture().put(`/fields/${field}`).set('Authorization', t.alice.auth).send(fieldBody('b'))).status).toBe(200);
  expect((await agriculture().delete(`/fields/${field}`).set('Authorization', t.alice.auth)).status).toBe(200);
  await eventually(() => expect(receiver.delivered).toHaveLength(3));

  // the handshake (CloudEvents Web Hooks 4.1) came first
  expect(receiver.requests[0]).toMatchObject({ method: 'OPTIONS', headers: { 'webhook-request-origin': 'fieldcast' } });
  const sent = receiver.deliveries;
  expect(sent.map((r) => JSON.parse(r.body).type)).toEqual([
    'fieldcast.agriculture.fields.created',
    'fieldcast.agriculture.fields.updated',
    'fieldcast.agriculture.fields.deleted',
  ]);
  for (const r of sent) {
    expect(r.method).toBe('POST');
    expect(r.headers['content-type']).toMatch(/^application\/cloudevents\+json(;|$)/);
    expect(r.headers['webhook-id']).toMatch(/^\S+$/);
    // integer seconds since the epoch, of the attempt
    expect(r.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(signedBy([secret], r)).toEqual([true]);
    // a changed byte of the body, or another timestamp, no longer verifies
    expect(signedBy([secret], { ...r, body: r.body.replace(field, crypto.randomUUID()) })).toEqual([false]);
    expect(signedBy([secret], { ...r, headers: { ...r.headers, 'webhook-timestamp': '1' } })).toEqual([false]);

    // CloudEvents 1.0: the required context attributes, and the optional ones as the spec types them
    const ce = JSON.parse(r.body);
    expect(ce.specversion).toBe('1.0');
    expect(typeof ce.id).toBe('string');
    expect(ce.source).toMatch(/^\/apps\/[0-9a-f-]{36}$/);
    expect(ce.subject).toBe(field);
    expect(ce.datacontenttype).toBe('application/json');
    expect(ce.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const read = await events().get(`/events/${ce.id}`).set('Authorization', t.alice.auth);
    expect(read.status).toBe(200);
    expect(ce.data).toEqual(read.body);
    expect(ce.time).toBe(read.body.occurrenceTime);
    expect(`fieldcast.${read.body.namespace.replaceAll('/', '.')}`).toBe(ce.type);
  }
  // one message per event: three webhook-ids and three CloudEvent ids
  expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(3);
  expect(new Set(sent.map((r) => JSON.parse(r.body).id)).size).toBe(3);

  // after a rotation both secrets sign, space-delimited; each verifies on its own
  const rotated = await events().post(`/subscriptions/${made.body.id}/secret`).set('Authorization', t.alice.auth);
  expect(rotated.status).toBe(200);
  await agriculture().post('/fields').set('Authorization', t.alice.auth).send(fieldBody('c'));
  await eventually(() => expect(receiver.delivered).toHaveLength(4));
  const fourth = receiver.deliveries[3]!;
  expect(fourth.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
  expect(signedBy([rotated.body.secret, secret, `whsec_${Buffer.alloc(32).toString('base64')}`], fourth)).toEqual([true, true, false]);
});
