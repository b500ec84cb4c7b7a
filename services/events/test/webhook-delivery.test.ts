import { backoffMs, DEAD_LETTER_AFTER_MS, MAX_BACKOFF_MS, signatureHeaders } from '../src/domain/webhook-delivery.js';

describe('webhook signatures and backoff', () => {
  test('signs as the Standard Webhooks specification’s published test vector', () => {
    // standard-webhooks/standard-webhooks: the libraries' shared case
    expect(
      signatureHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    ).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
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
});
