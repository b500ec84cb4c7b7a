import { agricultureService } from '@fieldcast/agriculture';
import { createLogger } from '@fieldcast/kit';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import request from 'supertest';
import { dispatcherOf, eventsService } from '../src/definition.js';
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
  test('refuses the special-purpose ranges of RFC 6890, in both families and through NAT64 and 6to4, unless named', () => {
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
      // documentation (TEST-NET-1 to 3, RFC 5737; RFC 3849)
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.200',
      '2001:db8::1',
      // a private IPv4 address behind the well-known NAT64 prefix (RFC 6052), either spelling
      '64:ff9b::10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1',
      // a private IPv4 address inside a 6to4 address (RFC 3056 2): 10.0.0.1, 127.0.0.1
      '2002:a00:1::1',
      '2002:7f00:1::',
      // IPv4-compatible (deprecated, RFC 4291 2.5.5.1), the new documentation prefix (RFC 9637), SRv6 SIDs (RFC 9602)
      '::127.0.0.1',
      '::a00:1',
      '3fff::1',
      '5f00::1',
    ])
      expect([a, guard.refusal(a)]).toEqual([a, expect.stringMatching(/special-purpose address/)]);
    // NAT64 and 6to4 to a public address are that public address
    for (const a of ['93.184.215.14', '2606:4700::1111', '64:ff9b::93.184.215.14', '64:ff9b::5db8:d70e', '2002:5db8:d70e::1'])
      expect([a, guard.refusal(a)]).toEqual([a, null]);
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
    expect(viaName).toMatchObject({ ok: false, error: expect.stringMatching(/localhost: .*special-purpose address/) });
    // The error is the account's to read (attempts, statusMessage): it names the host it was given,
    // never the internal addresses the deployment's DNS resolved it to.
    expect((viaName as { error: string }).error).not.toMatch(/127\.0\.0\.1|::1/);
    const viaAddress = await refused.send({ url: `http://127.0.0.1:${port()}/hook`, method: 'POST', headers: {}, body: '{}' });
    expect(viaAddress).toMatchObject({ ok: false, error: expect.stringMatching(/127.0.0.1 is a special-purpose address/) });
    expect(receiver.requests).toHaveLength(0);
    refused.close();
    const allowed = new WebhookSender(new AddressGuard(['127.0.0.1', '::1']), 2000);
    expect(await allowed.send({ url: `http://localhost:${port()}/hook`, method: 'POST', headers: {}, body: '{}' })).toMatchObject({
      ok: true,
      statusCode: 200,
    });
    allowed.close();
  });

  test('a name that does not resolve reads as one that resolves to a refused address: internal names cannot be probed', async () => {
    const sender = new WebhookSender(new AddressGuard([]), 2000);
    const send = (host: string) => sender.send({ url: `http://${host}:${port()}/hook`, method: 'POST', headers: {}, body: '{}' });
    // .invalid never resolves (RFC 6761 section 6.4); localhost resolves to the loopback
    const unknown = (await send('no-such-host.invalid')) as { ok: false; error: string };
    const internal = (await send('localhost')) as { ok: false; error: string };
    expect([unknown.ok, internal.ok]).toEqual([false, false]);
    expect(unknown.error.replace('no-such-host.invalid', 'HOST')).toBe(internal.error.replace('localhost', 'HOST'));
    // still readable for a mistyped public name
    expect(unknown.error).toMatch(/^no-such-host\.invalid: .*does not resolve/);
    expect(unknown.error).not.toMatch(/ENOTFOUND|EAI_|getaddrinfo/);
    sender.close();
  });
});

describe('timeouts', () => {
  const START = Date.parse('2026-06-01T00:00:00Z');
  let nowMs = START;
  const t = useTestFleet([agricultureService, eventsService], { now: () => new Date(nowMs), webhookAllowPrivate: ['127.0.0.1'] });

  test('a receiver that does not answer in time is a failed attempt, retried counting from the attempt’s end', async () => {
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
    // the service's own dispatcher ends the pass the first send's end started, so the clock's move
    // below is seen by the test's dispatcher only
    await dispatcherOf(t.fleet.deps('events') as Parameters<typeof dispatcherOf>[0]).settled();
    // the same dispatcher as the service's, with a timeout a test can wait for; the clock moves
    // on 10 s while the receiver keeps the request, as a real timeout would
    receiver.answer = () => {
      nowMs += 10_000;
      return 'hang';
    };
    const dispatcher = new WebhookDispatcher({
      store,
      sender: new WebhookSender(new AddressGuard(['127.0.0.1'], false), 300),
      now: () => new Date(nowMs),
      logger: createLogger({ level: 'silent' }),
      origin: 'fieldcast',
      random: () => 0,
    });
    const started = Date.parse(first!.nextAttemptTime!);
    nowMs = started;
    expect(await dispatcher.pass(new Date(nowMs))).toBeGreaterThan(0);
    await dispatcher.settled();
    expect(nowMs).toBe(started + 10_000);
    const after = (await list()).deliveries.find((d) => d.id === first!.id)!;
    expect(after.attempts.at(-1)).toMatchObject({ statusCode: null, error: 'no answer within 0.3 s' });
    expect(after.status).toBe('pending');
    // attempt 2 failed, no jitter: half of 20 s, from the end of the attempt (not from its start)
    expect(after.attempts.at(-1)!.time).toBe(new Date(started).toISOString());
    expect(Date.parse(after.nextAttemptTime!) - nowMs).toBe(10_000);
    await dispatcher.stop();
  });
});
