import { verifyWebhook } from '../src/index.js';

// The Standard Webhooks specification's published test vector (standard-webhooks/standard-webhooks,
// the libraries' shared test case): secret, message id, timestamp, payload and the signature.
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const timestamp = 1614265330;
const body = '{"test": 2432232314}';
const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const headers = (sig = signature, ts = String(timestamp)) => ({ 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig });

describe('verifyWebhook', () => {
  test('accepts the published vector, as Node headers and as Fetch Headers', async () => {
    expect(await verifyWebhook(secret, body, headers(), { nowSeconds: timestamp })).toBe(true);
    expect(await verifyWebhook(secret, body, new Headers(headers()), { nowSeconds: timestamp + 299 })).toBe(true);
  });

  test('accepts one good signature among several (a secret being rotated)', async () => {
    expect(await verifyWebhook(secret, body, headers(`v1,AAAA ${signature}`), { nowSeconds: timestamp })).toBe(true);
  });

  test('refuses a changed body, another secret, an old timestamp or a missing header', async () => {
    expect(await verifyWebhook(secret, '{"test": 2432232315}', headers(), { nowSeconds: timestamp })).toBe(false);
    expect(await verifyWebhook('whsec_c2VjcmV0LW9mLWFub3RoZXItZW5kcG9pbnQ=', body, headers(), { nowSeconds: timestamp })).toBe(false);
    expect(await verifyWebhook(secret, body, headers(), { nowSeconds: timestamp + 301 })).toBe(false);
    expect(await verifyWebhook(secret, body, headers('v2,' + signature.slice(3)), { nowSeconds: timestamp })).toBe(false);
    expect(await verifyWebhook(secret, body, { 'webhook-id': id }, { nowSeconds: timestamp })).toBe(false);
  });

  test('hashes the body once however many signatures a request carries, so a forged header of thousands costs one HMAC', async () => {
    const many = [...Array.from({ length: 2000 }, () => 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='), signature].join(' ');
    // Web Crypto's HMAC calls, counted: each is one pass over the body
    let hmacs = 0;
    const subtle = crypto.subtle as unknown as Record<'sign' | 'verify', (...args: unknown[]) => Promise<unknown>>;
    const original = { sign: subtle.sign, verify: subtle.verify };
    for (const name of ['sign', 'verify'] as const)
      subtle[name] = (...args: unknown[]) => {
        hmacs++;
        return original[name].apply(crypto.subtle, args);
      };
    try {
      expect(await verifyWebhook(secret, body, headers(many), { nowSeconds: timestamp })).toBe(true);
      expect(hmacs).toBe(1);
    } finally {
      Object.assign(subtle, original);
    }
  });

  test('finds the headers whatever their case in a plain object (header names are case-insensitive, RFC 9110 §5.1)', async () => {
    const mixed = { 'Webhook-Id': id, 'Webhook-Timestamp': String(timestamp), 'WEBHOOK-SIGNATURE': signature };
    expect(await verifyWebhook(secret, body, mixed, { nowSeconds: timestamp })).toBe(true);
  });

  test('verifies a body given as the bytes received', async () => {
    const bytes = new TextEncoder().encode(body);
    expect(await verifyWebhook(secret, bytes, headers(), { nowSeconds: timestamp })).toBe(true);
    expect(await verifyWebhook(secret, bytes.buffer, headers(), { nowSeconds: timestamp })).toBe(true);
    expect(await verifyWebhook(secret, new TextEncoder().encode(body + ' '), headers(), { nowSeconds: timestamp })).toBe(false);
  });

  test('refuses a timestamp more than five minutes ahead as well as behind', async () => {
    expect(await verifyWebhook(secret, body, headers(), { nowSeconds: timestamp - 300 })).toBe(true);
    expect(await verifyWebhook(secret, body, headers(), { nowSeconds: timestamp - 301 })).toBe(false);
  });

  test('answers false, never throws, for malformed headers', async () => {
    const malformed = [
      headers(signature, 'abc'),
      headers(signature, '1614265330.5'),
      headers(signature, ''),
      headers(''),
      headers('v1,'),
      headers('v1,not base64!'),
      headers('v1'),
      headers(signature.replace('v1,', 'v1a,')),
      { 'webhook-id': [], 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
    ];
    for (const h of malformed) expect(await verifyWebhook(secret, body, h, { nowSeconds: timestamp })).toBe(false);
  });

  test('says clearly when the secret is not a whsec_ base64 secret, rather than refusing every request', async () => {
    for (const bad of [undefined, '', 'whsec_', 'whsec_not base64!'])
      await expect(verifyWebhook(bad as unknown as string, body, headers(), { nowSeconds: timestamp })).rejects.toThrow(/secret.*whsec_/);
  });
});
