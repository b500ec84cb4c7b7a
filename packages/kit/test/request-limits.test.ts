import type { Request, RequestHandler, Response } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { z } from 'zod';
import { Api, createServiceApp, unauthorized, type Account, type Identity, type ServiceDefinition } from '../src/index.js';
import { DEFAULT_LIMITS, type Limits } from '../src/limits.js';
import { requestLimiters } from '../src/request-limits.js';
import { parseRange } from '../src/address-ranges.js';
import { ConcurrencyQueue, TokenBuckets } from '../src/token-buckets.js';
import { testDeps } from './deps.js';

/** A clock the test moves by hand, in milliseconds. */
function fakeClock() {
  let now = 0;
  return { clock: () => now, advance: (ms: number) => (now += ms) };
}

/** A callback a test expects never to be called. */
const fail = () => {
  throw new Error('not expected');
};

/** Timers the test fires by hand: what `schedule` was given, in order. */
function manualTimers() {
  const timers: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  return {
    timers,
    schedule: (ms: number, fire: () => void) => {
      const timer = { ms, fire, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
  };
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
    const slots = new ConcurrencyQueue({ max: 2, maxWaiting: 0, waitMs: 1_000 });
    const enter = (key: string) => slots.enter(key, fail, fail);
    const a = enter('acct')!;
    const b = enter('acct')!;
    expect([a.running, b.running]).toEqual([true, true]);
    expect(enter('acct')).toBeNull();
    expect(enter('other')).not.toBeNull();
    a.leave();
    a.leave(); // a second leave changes nothing
    const c = enter('acct');
    expect(c?.running).toBe(true);
    expect(enter('acct')).toBeNull();
    b.leave();
    c!.leave();
    expect(slots.size).toBe(1); // only 'other' is in flight
  });
});

describe('a queue of heavy requests per key (docs/decisions/0511-heavy-requests-wait-their-turn.md)', () => {
  it('beyond the slots, waits in order of arrival; a released slot goes to the oldest waiter; a full queue refuses', () => {
    const time = manualTimers();
    const slots = new ConcurrencyQueue({ max: 1, maxWaiting: 2, waitMs: 30_000 }, time.schedule);
    const granted: string[] = [];
    const enter = (key: string, name: string) => slots.enter(key, () => granted.push(name), fail);
    const a = enter('acct', 'a')!;
    const b = enter('acct', 'b')!;
    const c = enter('acct', 'c')!;
    expect([a.running, b.running, c.running]).toEqual([true, false, false]);
    expect(enter('acct', 'd')).toBeNull(); // the queue holds two
    expect(enter('other', 'e')?.running).toBe(true); // another key has its own slots
    expect(time.timers.map((t) => t.ms)).toEqual([30_000, 30_000]);
    a.leave();
    expect(granted).toEqual(['b']);
    expect(time.timers[0]!.cancelled).toBe(true); // b no longer waits: its time runs no more
    const f = enter('acct', 'f')!; // b's place is free again
    expect(f.running).toBe(false);
    a.leave(); // a second leave hands on no second slot
    expect(granted).toEqual(['b']);
    b.leave();
    c.leave();
    f.leave();
    expect(granted).toEqual(['b', 'c', 'f']);
    expect(slots.size).toBe(1); // only 'other' holds a slot
  });

  it('a waiter past its time is told so and leaves its place; one that leaves while waiting is never granted', () => {
    const time = manualTimers();
    const slots = new ConcurrencyQueue({ max: 1, maxWaiting: 2, waitMs: 5_000 }, time.schedule);
    const running = slots.enter('acct', fail, fail)!;
    const expired: string[] = [];
    const late = slots.enter('acct', fail, () => expired.push('late'))!;
    const gone = slots.enter('acct', fail, () => expired.push('gone'))!;
    expect(slots.enter('acct', fail, fail)).toBeNull();
    gone.leave();
    expect(time.timers[1]!.cancelled).toBe(true);
    time.timers[0]!.fire();
    expect(expired).toEqual(['late']);
    late.leave(); // its response ends after the refusal: nothing more to give back
    // Both places are free: two more may wait, and the slot goes to the first of them.
    const granted: string[] = [];
    const next = slots.enter('acct', () => granted.push('next'), fail)!;
    expect(slots.enter('acct', () => granted.push('then'), fail)).not.toBeNull();
    expect(slots.enter('acct', fail, fail)).toBeNull();
    running.leave();
    expect(granted).toEqual(['next']);
    next.leave();
    expect(granted).toEqual(['next', 'then']);
  });

  it('with no room to wait, refuses at once as a counter does', () => {
    const slots = new ConcurrencyQueue({ max: 1, maxWaiting: 0, waitMs: 5_000 }, manualTimers().schedule);
    const a = slots.enter('acct', fail, fail)!;
    expect(slots.enter('acct', fail, fail)).toBeNull();
    a.leave();
    expect(slots.size).toBe(0);
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
  /** the `n` of each heavy request whose handler ran, in order */
  const ran: string[] = [];
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
          handle: ({ req }) => {
            ran.push(String(req.query.n));
            return new Promise((resolve) => open.push(() => resolve({ ok: true })));
          },
        })
        .op({
          method: 'get',
          path: '/heavy-failing',
          summary: 'heavy, and fails once the test lets it finish',
          heavy: true,
          response: { status: 200, description: 'ok', schema: z.object({ ok: z.boolean() }) },
          handle: () => new Promise((_resolve, reject) => open.push(() => reject(new Error('the computation failed')))),
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
    /** Lets the oldest request in flight finish. */
    finishOldest: () => open.shift()?.(),
    inFlight: () => open.length,
    ran,
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
      heavyQueuedPerAccount: 160,
      heavyWaitMs: 30_000,
      failedAuth: { perSecond: 1, burst: 100 },
      ownedPerKind: 10_000,
    });
  });
});

describe('concurrent heavy requests per account', () => {
  it('with no queue, refuses a heavy request over the cap with 429 while light ones and other accounts go on, and frees the slot when one ends', async () => {
    const probe = probeApp({ heavyPerAccount: 2, heavyQueuedPerAccount: 0 });
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

describe('heavy requests over the cap wait their turn (docs/decisions/0511-heavy-requests-wait-their-turn.md)', () => {
  /** Sends a heavy request as Alice, named `n`, and resolves with its answer. */
  const heavy = (app: ReturnType<typeof probeApp>['app'], n: string | number, path = '/heavy') =>
    request(app)
      .get(`${path}?n=${n}`)
      .set('Authorization', alice)
      .then((r) => r);
  /**
   * Sends heavy requests one after the other, each only once the one before was authenticated
   * (and so in flight or queued), so they arrive in that order.
   */
  async function sendInOrder(probe: ReturnType<typeof probeApp>, names: string[]) {
    const answers = [];
    for (const n of names) {
      const authenticated = probe.checked.length;
      answers.push(heavy(probe.app, n));
      await until(() => probe.checked.length > authenticated);
      await new Promise((r) => setTimeout(r, 20));
    }
    return answers;
  }

  it('the 17th heavy request of an account waits, and succeeds once one of the 16 finishes', async () => {
    const probe = probeApp({});
    const answers = Array.from({ length: 17 }, (_, i) => heavy(probe.app, i));
    await until(() => probe.inFlight() === 16 && probe.checked.length === 17);
    await new Promise((r) => setTimeout(r, 50));
    expect(probe.inFlight()).toBe(16);
    probe.finishOldest();
    await until(() => probe.inFlight() === 16 && probe.ran.length === 17);
    expect(probe.ran.length).toBe(17);
    probe.finishHeavy();
    expect((await Promise.all(answers)).map((r) => r.status)).toEqual(Array(17).fill(200));
  });

  it('waiters take the released slots in the order they came', async () => {
    const probe = probeApp({ heavyPerAccount: 1, heavyQueuedPerAccount: 3 });
    const answers = await sendInOrder(probe, ['a', 'b', 'c', 'd']);
    expect(probe.ran).toEqual(['a']);
    for (const expected of [
      ['a', 'b'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c', 'd'],
    ]) {
      probe.finishOldest();
      await until(() => probe.ran.length === expected.length);
      expect(probe.ran).toEqual(expected);
    }
    probe.finishHeavy();
    expect((await Promise.all(answers)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it('a request that finds the queue full gets 429 at once', async () => {
    const probe = probeApp({ heavyPerAccount: 1, heavyQueuedPerAccount: 1 });
    const answers = await sendInOrder(probe, ['running', 'waiting']);
    const refused = await heavy(probe.app, 'refused');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toMatchObject({ status: 429, id: 'too_many_heavy_requests' });
    expect(refused.body.detail).toMatch(/1 heavy requests in progress and 1 waiting/);
    // Another account has its own slots and queue.
    const bobs = request(probe.app)
      .get('/heavy?n=bob')
      .set('Authorization', bob)
      .then((r) => r);
    await until(() => probe.ran.includes('bob'));
    probe.finishHeavy();
    await until(() => probe.ran.includes('waiting'));
    probe.finishHeavy();
    expect([...(await Promise.all(answers)), await bobs].map((r) => r.status)).toEqual([200, 200, 200]);
    expect(probe.ran).not.toContain('refused');
  });

  it('a waiter past its time gets 429 with Retry-After and its handler never runs', async () => {
    const probe = probeApp({ heavyPerAccount: 1, heavyWaitMs: 100 });
    const [running] = await sendInOrder(probe, ['running']);
    const late = await heavy(probe.app, 'late');
    expect(late.status).toBe(429);
    expect(late.headers['retry-after']).toBe('1');
    expect(late.body).toMatchObject({ status: 429, id: 'too_many_heavy_requests' });
    expect(late.body.detail).toMatch(/waited 0\.1 s/);
    probe.finishHeavy();
    expect((await running!).status).toBe(200);
    // Its place and the slot are free again.
    const next = heavy(probe.app, 'next');
    await until(() => probe.ran.includes('next'));
    probe.finishHeavy();
    expect((await next).status).toBe(200);
    expect(probe.ran).toEqual(['running', 'next']);
  });

  it('a waiter whose client goes away leaves its place at once and its handler never runs', async () => {
    const probe = probeApp({ heavyPerAccount: 1, heavyQueuedPerAccount: 1 });
    const [running] = await sendInOrder(probe, ['running']);
    const server = probe.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const authenticated = probe.checked.length;
    const gone = http.get({
      port: (server.address() as AddressInfo).port,
      path: '/heavy?n=gone',
      headers: { Authorization: alice },
      agent: false,
    });
    gone.on('error', () => undefined);
    await until(() => probe.checked.length > authenticated);
    await new Promise((r) => setTimeout(r, 20));
    gone.destroy();
    // Its place is free: one more may wait, where it would be refused were the place still taken.
    await new Promise((r) => setTimeout(r, 50));
    const [after] = await sendInOrder(probe, ['after']);
    server.close();
    probe.finishHeavy();
    await until(() => probe.ran.includes('after'));
    probe.finishHeavy();
    expect([(await running!).status, (await after!).status]).toEqual([200, 200]);
    expect(probe.ran).toEqual(['running', 'after']);
  });

  it('a request that fails releases its slot exactly once, to the next waiter', async () => {
    const probe = probeApp({ heavyPerAccount: 1, heavyQueuedPerAccount: 2 });
    const failing = heavy(probe.app, 'failing', '/heavy-failing');
    await until(() => probe.inFlight() === 1);
    const answers = await sendInOrder(probe, ['b', 'c']);
    probe.finishOldest();
    expect((await failing).status).toBe(500);
    // b runs, and only b: the failure gave back one slot, not two.
    await until(() => probe.ran.includes('b'));
    await new Promise((r) => setTimeout(r, 50));
    expect(probe.ran).toEqual(['b']);
    probe.finishOldest();
    await until(() => probe.ran.includes('c'));
    probe.finishHeavy();
    expect((await Promise.all(answers)).map((r) => r.status)).toEqual([200, 200]);
    // Nothing is held any more: the cap's worth runs at once, and the queue's worth waits.
    const again = await sendInOrder(probe, ['x', 'y', 'z']);
    expect(probe.ran.slice(-1)).toEqual(['x']);
    expect((await heavy(probe.app, 'over')).status).toBe(429);
    probe.finishHeavy();
    await until(() => probe.ran.includes('y'));
    probe.finishHeavy();
    await until(() => probe.ran.includes('z'));
    probe.finishHeavy();
    expect((await Promise.all(again)).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('a cap of 0 turns the limit off: nothing waits', async () => {
    const probe = probeApp({ heavyPerAccount: 0, heavyQueuedPerAccount: 0 });
    const answers = Array.from({ length: 40 }, (_, i) => heavy(probe.app, i));
    await until(() => probe.inFlight() === 40);
    expect(probe.inFlight()).toBe(40);
    probe.finishHeavy();
    expect((await Promise.all(answers)).every((r) => r.status === 200)).toBe(true);
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
