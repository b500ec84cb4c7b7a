import { agricultureService } from '@fieldcast/agriculture';
import { createLogger } from '@fieldcast/kit';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import request from 'supertest';
import { eventsService } from '../src/definition.js';
import { DeliveryStore } from '../src/webhook-store.js';
import { AddressGuard } from '../src/webhooks/address-guard.js';
import { WebhookDispatcher } from '../src/webhooks/dispatcher.js';
import { WebhookSender } from '../src/webhooks/sender.js';
import { fieldBody } from './helpers.js';
import { WebhookReceiver } from './webhook-receiver.js';

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = new WebhookReceiver();
  await receiver.start();
});
afterEach(() => receiver.stop());

const port = () => new URL(receiver.url).port;

describe('the address guard', () => {
  test('refuses private, loopback and link-local addresses, in both families, unless named', () => {
    const guard = new AddressGuard([]);
    for (const a of [
      '127.0.0.1',
      '10.0.0.8',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::2',
      '::ffff:127.0.0.1',
    ])
      expect([a, guard.refusal(a)]).toEqual([a, expect.stringMatching(/private, loopback or link-local/)]);
    for (const a of ['93.184.215.14', '2606:4700::1111']) expect(guard.refusal(a)).toBeNull();
    const allowing = new AddressGuard(['127.0.0.1', '10.1.0.0/16']);
    expect(allowing.refusal('127.0.0.1')).toBeNull();
    expect(allowing.refusal('10.1.200.3')).toBeNull();
    expect(allowing.refusal('10.2.0.1')).not.toBeNull();
    expect(allowing.refusal('127.0.0.2')).not.toBeNull();
    // a fleet that may reach no public address (tests) reaches only what it names
    expect(new AddressGuard(['127.0.0.1'], false).refusal('93.184.215.14')).toMatch(/not an allowed address/);
  });

  test('a host name is checked after DNS resolution, on the connection itself', async () => {
    const refused = new WebhookSender(new AddressGuard([]), 2000);
    const viaName = await refused.send({ url: `http://localhost:${port()}/hook`, method: 'POST', headers: {}, body: '{}' });
    expect(viaName).toMatchObject({ ok: false, error: expect.stringMatching(/localhost: .*(private, loopback or link-local)/) });
    const viaAddress = await refused.send({ url: `http://127.0.0.1:${port()}/hook`, method: 'POST', headers: {}, body: '{}' });
    expect(viaAddress).toMatchObject({ ok: false, error: expect.stringMatching(/127.0.0.1 is a private/) });
    expect(receiver.requests).toHaveLength(0);
    refused.close();
    const allowed = new WebhookSender(new AddressGuard(['127.0.0.1', '::1']), 2000);
    expect(await allowed.send({ url: `http://localhost:${port()}/hook`, method: 'POST', headers: {}, body: '{}' })).toMatchObject({
      ok: true,
      statusCode: 200,
    });
    allowed.close();
  });
});

describe('timeouts', () => {
  const START = Date.parse('2026-06-01T00:00:00Z');
  let nowMs = START;
  const t = useTestFleet([agricultureService, eventsService], { now: () => new Date(nowMs), webhookAllowPrivate: ['127.0.0.1'] });

  test('a receiver that does not answer in time is a failed attempt, retried later', async () => {
    receiver.answer = () => 500;
    const sub = await request(t.fleet.app('events'))
      .post('/subscriptions')
      .set('Authorization', t.alice.auth)
      .send({ url: receiver.url, filter: { namespaces: ['agriculture/fields'] } });
    expect(sub.status).toBe(201);
    await request(t.fleet.app('agriculture')).post('/fields').set('Authorization', t.alice.auth).send(fieldBody());
    const store = new DeliveryStore(t.fleet.db.knex);
    const list = () => store.deliveries(t.alice.id, sub.body.id, { limit: 10 });
    // the first attempt (a 500) recorded
    const [first] = await eventually(async () => {
      const page = await list();
      expect(page.deliveries.map((d) => [d.status, d.attemptCount])).toEqual([['pending', 1]]);
      return page.deliveries;
    });
    // the same dispatcher as the service's, with a timeout a test can wait for
    receiver.answer = () => 'hang';
    const dispatcher = new WebhookDispatcher({
      store,
      sender: new WebhookSender(new AddressGuard(['127.0.0.1'], false), 300),
      now: () => new Date(nowMs),
      logger: createLogger({ level: 'silent' }),
      origin: 'fieldcast',
      random: () => 0,
    });
    nowMs = Date.parse(first!.nextAttemptTime!);
    expect(await dispatcher.pass(new Date(nowMs))).toBeGreaterThan(0);
    const after = (await list()).deliveries.find((d) => d.id === first!.id)!;
    expect(after.attempts.at(-1)).toMatchObject({ statusCode: null, error: 'no answer within 0.3 s' });
    expect(after.status).toBe('pending');
    // attempt 2 failed, no jitter: half of 20 s
    expect(Date.parse(after.nextAttemptTime!) - nowMs).toBe(10_000);
    await dispatcher.stop();
  });
});
