import {
  ALLOWED_RATE_MAX,
  allowedRate,
  backoffMs,
  DEAD_LETTER_AFTER_MS,
  MAX_BACKOFF_MS,
  nextAttemptDelayMs,
  retryAfterMs,
  signatureHeaders,
} from '../src/domain/webhook-delivery.js';
import { filterMatches } from '../src/domain/subscriptions.js';
import { SubscriptionFilter } from '@fieldcast/schemas';

describe('webhook signatures and backoff', () => {
  test('signs as the Standard Webhooks specification’s published test vector', () => {
    // standard-webhooks/standard-webhooks: the libraries' shared case
    expect(
      signatureHeaders(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    ).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  test('while a secret is rotated, one v1 signature per secret, space-delimited, the new one first', () => {
    const old = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const fresh = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const one = (secret: string) => signatureHeaders([secret], 'msg_1', 1614265330, '{}')['webhook-signature'];
    expect(signatureHeaders([fresh, old], 'msg_1', 1614265330, '{}')['webhook-signature']).toBe(`${one(fresh)} ${one(old)}`);
    expect(one(fresh)).not.toBe(one(old));
  });

  test('backoff doubles from 10 s to an hour, half of it jitter, and retries span more than 24 hours', () => {
    expect([1, 2, 3].map((n) => backoffMs(n, 0))).toEqual([5_000, 10_000, 20_000]);
    expect([1, 2, 3].map((n) => backoffMs(n, 0.999999))).toEqual([10_000, 20_000, 40_000]);
    expect(backoffMs(40, 0.5)).toBe(MAX_BACKOFF_MS * 0.75);
    // the shortest schedule (jitter always 0) still takes more than 40 attempts to reach 24 hours
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < DEAD_LETTER_AFTER_MS) elapsed += backoffMs(++attempts, 0);
    expect(attempts).toBeGreaterThan(40);
  });

  test('Retry-After: delay-seconds or an HTTP-date (RFC 9110 10.2.3), capped; anything else is ignored', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 01 Jun 2026 00:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('Sun, 31 May 2026 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('999999999', now)).toBe(MAX_BACKOFF_MS);
    for (const junk of [undefined, '', '1.5', 'soon', '-3', 'Monday 2026']) expect([junk, retryAfterMs(junk, now)]).toEqual([junk, null]);
    // never sooner than the backoff, never sooner than the receiver asked
    expect(nextAttemptDelayMs(1, 0, '1', now)).toBe(5_000);
    expect(nextAttemptDelayMs(1, 0, '60', now)).toBe(60_000);
    expect(nextAttemptDelayMs(1, 0, undefined, now)).toBe(5_000);
  });

  test('Retry-After in the obsolete HTTP-date forms a recipient must accept too (RFC 9110 5.6.7), in GMT whatever the local zone', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(retryAfterMs('Monday, 01-Jun-26 00:05:00 GMT', now)).toBe(300_000);
      expect(retryAfterMs('Mon Jun  1 00:05:00 2026', now)).toBe(300_000);
      expect(retryAfterMs('Mon Jun 11 00:05:00 2026', now)).toBe(MAX_BACKOFF_MS);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('the receiver’s WebHook-Allowed-Rate (HTTP 1.1 Web Hooks for Event Delivery 4.2.2)', () => {
  test('an asterisk is no limit; a positive whole number is requests per minute; none states no limit', () => {
    expect(allowedRate('*')).toEqual({ ok: true, perMinute: null });
    expect(allowedRate(undefined)).toEqual({ ok: true, perMinute: null });
    expect(allowedRate('2')).toEqual({ ok: true, perMinute: 2 });
    expect(allowedRate(' 120 ')).toEqual({ ok: true, perMinute: 120 });
    // far past anything a sender reaches: kept as the most a column holds, still a limit
    expect(allowedRate('99999999999999999999')).toEqual({ ok: true, perMinute: ALLOWED_RATE_MAX });
  });

  test('anything else is no grant at all', () => {
    for (const junk of ['0', '00', '-1', '+5', '1.5', '1e3', '0x10', 'ten', '', '**', '2, 3', '2 *'])
      expect([junk, allowedRate(junk)]).toEqual([junk, { ok: false, value: junk }]);
    // the field given twice
    expect(allowedRate(['2', '3'])).toEqual({ ok: false, value: '2, 3' });
  });
});

describe('subscription filters', () => {
  const event = (namespace: string) => ({
    app: 'agriculture',
    appId: crypto.randomUUID(),
    namespace,
    origin: { namespace: 'agriculture/fields', id: crypto.randomUUID() },
    tagged: [],
  });

  test('namespace prefixes match whole path segments', () => {
    const takes = (prefix: string, namespace: string) => filterMatches({ namespaces: [prefix] }, event(namespace));
    expect(takes('agriculture/fields', 'agriculture/fields/updated')).toBe(true);
    expect(takes('agriculture/fields', 'agriculture/fields')).toBe(true);
    expect(takes('agriculture/', 'agriculture/fields/updated')).toBe(true);
    expect(takes('agriculture', 'agriculture/fields/updated')).toBe(true);
    expect(takes('agriculture/field', 'agriculture/fields/updated')).toBe(false);
    expect(takes('agriculture/fields/up', 'agriculture/fields/updated')).toBe(false);
    expect(takes('agri', 'agriculture/fields/updated')).toBe(false);
    // an application's namespaces may hold capitals (spec 2.10 shows path-like identifiers): a
    // prefix takes them as written
    expect(takes('Crops/Scouting', 'Crops/Scouting/aphids')).toBe(true);
    expect(takes('crops/scouting', 'Crops/Scouting/aphids')).toBe(false);
    expect(SubscriptionFilter.safeParse({ namespaces: ['Crops/Scouting'] }).success).toBe(true);
  });

  test('a namespace prefix no event namespace could start with is refused, not kept to match nothing', () => {
    const refused = (prefix: string) => SubscriptionFilter.safeParse({ namespaces: [prefix] }).error?.issues.map((i) => i.message);
    // an empty segment, or one starting with what no segment of a namespace starts with (spec 2.10)
    for (const prefix of ['bad//ns', 'agriculture//', 'agriculture/.fields', 'agriculture/-x', 'agriculture/_x'])
      expect(refused(prefix)).toEqual(['must be a namespace prefix such as agriculture/fields']);
    for (const prefix of ['agriculture', 'agriculture/', 'agriculture/fields', 'a.b/c_d-e/', 'Crops/Scouting'])
      expect(refused(prefix)).toBeUndefined();
  });
});
