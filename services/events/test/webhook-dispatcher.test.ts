import { createLogger } from '@fieldcast/kit';
import type { AttemptRecord, ClaimedDelivery, DeliveryStore } from '../src/webhook-store.js';
import { WebhookDispatcher } from '../src/webhooks/dispatcher.js';
import type { SendRequest, WebhookSender } from '../src/webhooks/sender.js';

/** Resolves after `n` turns of the microtask queue. */
async function microtasks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

/**
 * A wake-up is never lost (docs/decisions/0260-webhook-delivery.md): a kick that arrives while a
 * run of passes ends, at whatever point of its ending, is followed by a pass.
 */
it('a kick at any moment of a run’s end is followed by a pass', async () => {
  for (let n = 0; n < 12; n++) {
    let claims = 0;
    const store = {
      adoptSubscriptions: async () => 0,
      claimValidations: async () => [],
      claimRateAsks: async () => [],
      claimDeliveries: async () => {
        claims += 1;
        // the second wake-up, n microtask turns after the first run's only pass found nothing
        if (claims === 1) void microtasks(n).then(() => dispatcher.kick());
        return [];
      },
    } as unknown as DeliveryStore;
    const sender = {
      send: async () => ({ ok: false, error: 'unused', durationMs: 0 }),
      close: () => undefined,
    } as unknown as WebhookSender;
    const dispatcher = new WebhookDispatcher({
      store,
      sender,
      now: () => new Date(0),
      logger: createLogger({ level: 'silent' }),
      origin: 'fieldcast',
    });
    dispatcher.kick();
    await new Promise((r) => setTimeout(r, 20));
    expect([n, claims]).toEqual([n, 2]);
    await dispatcher.stop();
  }
});

/**
 * A pass awaits its handshakes (up to the send timeout each) before it claims deliveries. Its
 * claims, and the attempts they start, are dated when they are made: dated when the pass began,
 * the lease would be shorter than LEASE_MS by the handshakes' time (another replica could send
 * the delivery again while this one still does), a paced receiver's hold would be moved on from a
 * time already past (its next request going at once, past its rate), and the attempt would be
 * signed and logged with a time before it was sent.
 */
it('a pass claims and signs at the time its handshakes ended, not when it began', async () => {
  let nowMs = 0;
  const validating = [{ id: 'slow', url: 'https://slow.example/hook' }];
  const claims: { now: number; leaseUntil: number }[] = [];
  const attempts: string[] = [];
  const delivery: ClaimedDelivery = {
    id: 'delivery',
    eventId: 'event',
    body: '{}',
    attemptCount: 0,
    firstAttemptAt: null,
    subscriptionId: 'subscription',
    url: 'https://paced.example/hook',
    receiver: 'https://paced.example/hook',
    secrets: [`whsec_${Buffer.alloc(32).toString('base64')}`],
    pacedUntil: new Date(30_000),
  };
  const store = {
    adoptSubscriptions: async () => 0,
    claimValidations: async () => validating.splice(0),
    recordValidation: async () => undefined,
    claimRateAsks: async () => [],
    claimDeliveries: async (now: Date, leaseUntil: Date) => {
      claims.push({ now: now.getTime(), leaseUntil: leaseUntil.getTime() });
      return claims.length === 1 ? [delivery] : [];
    },
    recordDelivered: async (delivered: { attempt: AttemptRecord }[]) => {
      attempts.push(...delivered.map((d) => d.attempt.time));
    },
  } as unknown as DeliveryStore;
  const signed: string[] = [];
  const sender = {
    send: async (request: SendRequest) => {
      if (request.method === 'OPTIONS') {
        // a handshake that takes its whole timeout, 20 s of the clock
        nowMs += 20_000;
        return { ok: false, error: 'no answer within 10 s', durationMs: 20_000 };
      }
      signed.push(request.headers['webhook-timestamp']!);
      return { ok: true, statusCode: 200, headers: {}, durationMs: 1 };
    },
    close: () => undefined,
  } as unknown as WebhookSender;
  const dispatcher = new WebhookDispatcher({
    store,
    sender,
    now: () => new Date(nowMs),
    logger: createLogger({ level: 'silent' }),
    origin: 'fieldcast',
  });
  await dispatcher.sweep(new Date(nowMs));
  await dispatcher.settled();
  expect(claims[0]).toEqual({ now: 20_000, leaseUntil: 50_000 });
  expect(signed).toEqual(['20']);
  expect(attempts).toEqual([new Date(20_000).toISOString()]);
  await dispatcher.stop();
});
