import type { Request, RequestHandler, Response } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { z } from 'zod';
import { Api, createServiceApp, unauthorized, type Account, type Identity, type ServiceDefinition } from '../src/index.js';
import { DEFAULT_LIMITS, type Limits } from '../src/limits.js';
import { requestLimiters } from '../src/request-limits.js';
import { parseRange } from '../src/address-ranges.js';
import { ConcurrencyCounter, TokenBuckets } from '../src/token-buckets.js';
import { testDeps } from './deps.js';

/** A clock the test moves by hand, in milliseconds. */
function fakeClock() {
  let now = 0;
  return { clock: () => now, advance: (ms: number) => (now += ms) };
}

describe('token buckets', () => {
  it('spends the burst, then refuses until tokens come back at the rate', () => {
    const time = fakeClock();
    const buckets = new TokenBuckets({ perSecond: 2, burst: 3 }, time.clock);
    expect([1, 2, 3].map(() => buckets.take('a').remaining)).toEqual([2, 1, 0]);
    const refused = buckets.take('a');
    expect(refused).toEqual({ allowed: false, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 });
    time.advance(499);
    expect(buckets.take('a').allowed).toBe(false);
    time.advance(1);
    expect(buckets.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    // another key has its own bucket
    expect(buckets.take('b')).toMatchObject({ allowed: true, remaining: 2 });
    time.advance(10_000);
    expect(buckets.level('a')).toBe(3);
  });

  it('never holds more than its bound of keys, dropping refilled buckets first, then the least recently used', () => {
    const time = fakeClock();
    const buckets = new TokenBuckets({ perSecond: 1, burst: 2 }, time.clock, 3);
    buckets.take('idle');
    time.advance(5_000); // 'idle' is full again: it carries nothing
    buckets.take('x');
    buckets.take('y');
    buckets.take('z');
    expect(buckets.size).toBe(3);
    expect(buckets.level('x')).toBe(1); // kept: 'idle' went instead
    for (let i = 0; i < 1_000; i++) buckets.take(`k${i}`);
    expect(buckets.size).toBe(3);
    expect(buckets.level('k999')).toBe(1);
    expect(buckets.level('x')).toBe(2); // evicted: a fresh bucket
  });

  it('counts requests in flight per key and forgets a key at zero', () => {
    const counter = new ConcurrencyCounter(2);
    const a = counter.acquire('acct')!;
    const b = counter.acquire('acct')!;
    expect(counter.acquire('acct')).toBeNull();
    expect(counter.acquire('other')).not.toBeNull();
    a();
    a(); // a second release changes nothing
    const c = counter.acquire('acct');
    expect(c).not.toBeNull();
    expect(counter.acquire('acct')).toBeNull();
    b();
    c!();
    expect(counter.size).toBe(1); // only 'other' is in flight
  });
});

const ALICE: Account = { id: '3b0f8c1e-2d4a-4c6b-8e9f-0a1b2c3d4e5f', name: 'Alice', handle: 'alice' };
const BOB: Account = { id: '9c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5', name: 'Bob', handle: 'bob' };
const KEYS = new Map([
  [ALICE.id, { key: 'alice-key', account: ALICE }],
  [BOB.id, { key: 'bob-key', account: BOB }],
]);
const basic = (id: string, key: string) => `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;
const alice = basic(ALICE.id, 'alice-key');
const bob = basic(BOB.id, 'bob-key');

function probeApp(limits: Partial<Limits>, authDelayMs = 0) {
  const checked: string[] = [];
  const identity: Identity = {
    cachedAccount: () => undefined,
    authenticate: async (id, key) => {
      checked.push(id);
      if (authDelayMs > 0) await new Promise((r) => setTimeout(r, authDelayMs));
      const known = KEYS.get(id);
      return known && known.key === key ? known.account : null;
    },
    findAccount: async () => null,
  };
  let open: (() => void)[] = [];
  const probe: ServiceDefinition = {
    area: 'probe',
    title: 'Probe',
    description: 'a service for testing the limits',
    needs: {},
    api: () =>
      new Api()
        .op({
          method: 'get',
          path: '/light',
          summary: 'light',
          response: { status: 200, description: 'ok', schema: z.object({ ok: z.boolean() }) },
          handle: () => ({ ok: true }),
        })
        .op({
          method: 'get',
          path: '/heavy',
          summary: 'heavy',
          heavy: true,
          response: { status: 200, description: 'ok', schema: z.object({ ok: z.boolean() }) },
          // Stays in flight until the test lets it finish.
          handle: () => new Promise((resolve) => open.push(() => resolve({ ok: true }))),
        }),
  };
  const deps = testDeps(identity, { limits });
  return {
    app: createServiceApp(probe, deps),
    checked,
    finishHeavy: () => {
      const all = open;
      open = [];
      for (const f of all) f();
    },
    inFlight: () => open.length,
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 1_000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('requests per account: a token bucket (RFC 6585 section 4, draft-ietf-httpapi-ratelimit-headers)', () => {
  it('answers 429 problem+json with Retry-After and the RateLimit fields once the burst is spent, and again after the refill', async () => {
    const time = fakeClock();
    const { app } = probeApp({ requests: { perSecond: 0.5, burst: 3 }, clock: time.clock });
    for (const remaining of [2, 1, 0]) {
      const ok = await request(app).get('/light').set('Authorization', alice);
      expect(ok.status).toBe(200);
      expect(ok.headers['ratelimit-policy']).toBe('"account";q=3;w=6');
      expect(ok.headers.ratelimit).toBe(`"account";r=${remaining};t=${(3 - remaining) * 2}`);
    }
    const refused = await request(app).get('/light').set('Authorization', alice);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.headers.ratelimit).toBe('"account";r=0;t=6');
    expect(refused.body).toMatchObject({ status: 429, id: 'too_many_requests' });
    // A script on another origin may read them (CORS).
    const cors = await request(app).get('/light').set('Authorization', alice).set('Origin', 'https://example.org');
    expect(cors.headers['access-control-expose-headers']?.split(',')).toEqual(
      expect.arrayContaining(['Link', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'ETag', 'Content-Range', 'Accept-Ranges']),
    );
    // Another account has its own bucket.
    expect((await request(app).get('/light').set('Authorization', bob)).status).toBe(200);
    time.advance(2_000);
    expect((await request(app).get('/light').set('Authorization', alice)).status).toBe(200);
    expect((await request(app).get('/light').set('Authorization', alice)).status).toBe(429);
  });

  it('a rate of 0 turns the limit off; operational endpoints are never limited', async () => {
    const { app } = probeApp({ requests: { perSecond: 0, burst: 1 } });
    for (let i = 0; i < 5; i++) {
      const res = await request(app).get('/light').set('Authorization', alice);
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
    }
    const limited = probeApp({ requests: { perSecond: 1, burst: 1 }, clock: () => 0 }).app;
    for (let i = 0; i < 5; i++) expect((await request(limited).get('/healthz')).status).toBe(200);
  });

  it('the defaults are on', () => {
    expect(DEFAULT_LIMITS).toMatchObject({
      requests: { perSecond: 100, burst: 1_000 },
      heavyPerAccount: 16,
      failedAuth: { perSecond: 1, burst: 100 },
      ownedPerKind: 10_000,
    });
  });
});

describe('concurrent heavy requests per account', () => {
  it('refuses a heavy request over the cap with 429 while light ones and other accounts go on, and frees the slot when one ends', async () => {
    const probe = probeApp({ heavyPerAccount: 2 });
    const first = request(probe.app)
      .get('/heavy')
      .set('Authorization', alice)
      .then((r) => r);
    const second = request(probe.app)
      .get('/heavy')
      .set('Authorization', alice)
      .then((r) => r);
    await until(() => probe.inFlight() === 2);
    const third = await request(probe.app).get('/heavy').set('Authorization', alice);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ id: 'too_many_heavy_requests' });
    expect(third.headers['retry-after']).toBe('1');
    expect((await request(probe.app).get('/light').set('Authorization', alice)).status).toBe(200);
    const bobs = request(probe.app)
      .get('/heavy')
      .set('Authorization', bob)
      .then((r) => r);
    await until(() => probe.inFlight() === 3);
    probe.finishHeavy();
    expect([(await first).status, (await second).status, (await bobs).status]).toEqual([200, 200, 200]);
    const again = request(probe.app)
      .get('/heavy')
      .set('Authorization', alice)
      .then((r) => r);
    await until(() => probe.inFlight() === 1);
    probe.finishHeavy();
    expect((await again).status).toBe(200);
  });
  it('a heavy request whose client left while it was being authenticated takes no slot', async () => {
    const probe = probeApp({ heavyPerAccount: 1 }, 300);
    await expect(request(probe.app).get('/heavy').set('Authorization', alice).timeout(100)).rejects.toThrow(/Timeout/);
    await new Promise((r) => setTimeout(r, 400)); // its authentication ends after the client has gone
    expect(probe.inFlight()).toBe(0);
    const next = request(probe.app)
      .get('/heavy')
      .set('Authorization', alice)
      .then((r) => r);
    await until(() => probe.inFlight() === 1);
    probe.finishHeavy();
    expect((await next).status).toBe(200);
  });

  it('a heavy request whose client goes away frees its slot, though its work has not finished', async () => {
    const probe = probeApp({ heavyPerAccount: 1 });
    // The client goes away only once its request is in the handler, however slow the machine.
    const server = probe.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const gone = http.get({
      port: (server.address() as AddressInfo).port,
      path: '/heavy',
      headers: { Authorization: alice },
      agent: false,
    });
    gone.on('error', () => undefined);
    await until(() => probe.inFlight() === 1);
    expect(probe.inFlight()).toBe(1);
    gone.destroy();
    server.close();
    const next = request(probe.app)
      .get('/heavy')
      .set('Authorization', alice)
      .then((r) => r);
    await until(() => probe.inFlight() === 2);
    expect(probe.inFlight()).toBe(2);
    probe.finishHeavy();
    expect((await next).status).toBe(200);
  });
});

describe('failed authentications per client address', () => {
  it('after the burst of wrong keys, refuses with 429 before checking credentials, even right ones, until the bucket refills', async () => {
    const time = fakeClock();
    const probe = probeApp({ failedAuth: { perSecond: 0.1, burst: 3 }, clock: time.clock });
    for (let i = 0; i < 3; i++)
      expect(
        (
          await request(probe.app)
            .get('/light')
            .set('Authorization', basic(ALICE.id, `wrong-${i}`))
        ).status,
      ).toBe(401);
    const checkedBefore = probe.checked.length;
    const refused = await request(probe.app).get('/light').set('Authorization', alice);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ id: 'too_many_failed_authentications' });
    expect(refused.headers['retry-after']).toBe('10');
    expect((await request(probe.app).get('/light').set('Authorization', basic(ALICE.id, 'wrong'))).status).toBe(429);
    expect(probe.checked.length).toBe(checkedBefore);
    time.advance(10_000);
    expect((await request(probe.app).get('/light').set('Authorization', alice)).status).toBe(200);
  });

  it('a request without credentials is no failed authentication', async () => {
    const probe = probeApp({ failedAuth: { perSecond: 0.1, burst: 1 }, clock: () => 0 });
    for (let i = 0; i < 5; i++) expect((await request(probe.app).get('/light')).status).toBe(401);
    expect((await request(probe.app).get('/light').set('Authorization', alice)).status).toBe(200);
  });

  /** Runs the limited authentication once, as from `address`, and says what it passed on. */
  function attempt(handler: RequestHandler, address: string, authorization: string, forwardedFor?: string): Promise<unknown> {
    const headers = { authorization, ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) };
    const req = { headers, socket: { remoteAddress: address } } as unknown as Request;
    const res = { locals: {}, setHeader: () => undefined } as unknown as Response;
    return new Promise((resolve) => handler(req, res, (err?: unknown) => resolve(err ?? 'passed')));
  }

  it('counts against the address alone: wrong keys for one id from other addresses lock its owner out nowhere', async () => {
    // Checks keys for real: Alice's right key passes, anything else is refused.
    const check: RequestHandler = (req, res, next) => {
      if (req.headers.authorization !== alice) return next(unauthorized());
      res.locals.account = ALICE;
      next();
    };
    const limits: Limits = { ...DEFAULT_LIMITS, failedAuth: { perSecond: 0.01, burst: 2 }, clock: () => 0 };
    const limited = requestLimiters(limits, check).authenticate;
    const throttled = { code: 'too_many_failed_authentications' };
    const checked = { name: 'UnauthorizedError' };
    // One address trying ids: its bucket is spent, so a third id from it is refused.
    expect(await attempt(limited, '10.0.0.4', basic(BOB.id, 'x'))).toMatchObject(checked);
    expect(await attempt(limited, '10.0.0.4', basic('another-id', 'x'))).toMatchObject(checked);
    expect(await attempt(limited, '10.0.0.4', basic('a-third-id', 'x'))).toMatchObject(throttled);
    // Wrong keys for Alice's id from many addresses are each checked and spend only their
    // address's bucket: an id is no secret (signed download links carry it), so a bucket per id
    // would let anyone who knows it keep its owner out (docs/decisions/0415-failed-authentications-counted-per-address.md).
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.5']) {
      expect(await attempt(limited, address, basic(ALICE.id, `guess-${address}`))).toMatchObject(checked);
      expect(await attempt(limited, address, basic(ALICE.id, `again-${address}`))).toMatchObject(checked);
    }
    expect(await attempt(limited, '10.0.0.6', alice)).toBe('passed');
    expect(await attempt(limited, '10.0.0.6', basic(ALICE.id.toUpperCase(), 'x'))).toMatchObject(checked);
  });

  it('behind a trusted proxy each caller is its own address; a forwarded-for from anyone else is not believed', async () => {
    const fail: RequestHandler = (_req, _res, next) => next(unauthorized());
    const limits: Limits = { ...DEFAULT_LIMITS, failedAuth: { perSecond: 0.01, burst: 2 }, clock: () => 0 };
    const failing = requestLimiters(limits, fail, [parseRange('10.1.0.0/16')]).authenticate;
    const throttled = { code: 'too_many_failed_authentications' };
    const checked = { name: 'UnauthorizedError' };
    // the ingress at 10.1.0.9 forwards a guesser at 198.51.100.7: its bucket is spent, not the ingress's
    expect(await attempt(failing, '10.1.0.9', basic('guess-1', 'x'), '198.51.100.7')).toMatchObject(checked);
    expect(await attempt(failing, '10.1.0.9', basic('guess-2', 'x'), '198.51.100.7')).toMatchObject(checked);
    expect(await attempt(failing, '10.1.0.9', basic('guess-3', 'x'), '198.51.100.7')).toMatchObject(throttled);
    expect(await attempt(failing, '10.1.0.9', basic(BOB.id, 'x'), '203.0.113.5')).toMatchObject(checked);
    // a peer that is no proxy names another address in vain: its own is counted
    expect(await attempt(failing, '192.0.2.1', basic('guess-4', 'x'), '203.0.113.1')).toMatchObject(checked);
    expect(await attempt(failing, '192.0.2.1', basic('guess-5', 'x'), '203.0.113.2')).toMatchObject(checked);
    expect(await attempt(failing, '192.0.2.1', basic('guess-6', 'x'), '203.0.113.3')).toMatchObject(throttled);
  });
});
