import { createLogger } from '@fieldcast/kit';
import type { ClaimedDelivery, DeliveryStore } from '../src/webhook-store.js';
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

const delivery: ClaimedDelivery = {
  id: 'delivery',
  eventId: 'event',
  body: '{}',
  attemptCount: 0,
  firstAttemptAt: null,
  subscriptionId: 'subscription',
  url: 'https://fast.example/hook',
  receiver: 'https://fast.example/hook',
  secrets: [`whsec_${Buffer.alloc(32).toString('base64')}`],
  pacedUntil: null,
};

/** A sender whose handshakes (OPTIONS) hang until `answer` is called, and whose deliveries are answered 200 at once. */
function hangingHandshakes() {
  const waiting: (() => void)[] = [];
  const sent: SendRequest[] = [];
  const sender = {
    send: async (request: SendRequest) => {
      sent.push(request);
      if (request.method === 'OPTIONS') {
        await new Promise<void>((r) => waiting.push(r));
        return { ok: true, statusCode: 200, headers: { 'webhook-allowed-origin': '*', 'webhook-allowed-rate': '60' }, durationMs: 10_000 };
      }
      return { ok: true, statusCode: 200, headers: {}, durationMs: 1 };
    },
    close: () => undefined,
  } as unknown as WebhookSender;
  return { sender, sent, answer: () => waiting.splice(0).forEach((r) => r()) };
}

/**
 * A slow receiver delays only its own subscription (docs/interface.md, webhooks): a handshake
 * (a validation, or a receiver asked for its rate, up to the send timeout each) runs beside the
 * deliveries, which other receivers get meanwhile; `settled` waits for it too.
 */
it('a handshake that does not answer holds back no other receiver’s delivery, and settled waits for it', async () => {
  const recorded: string[] = [];
  // each claimed once, as their leases have it
  const validations = [{ id: 'new', url: 'https://silent.example/a' }];
  const asks = ['https://silent.example/b'];
  const store = {
    adoptSubscriptions: async () => 0,
    claimValidations: async () => validations.splice(0),
    recordValidation: async (id: string) => void recorded.push(`validation ${id}`),
    claimRateAsks: async () => asks.splice(0),
    recordRateAsk: async (url: string) => void recorded.push(`rate ${url}`),
    claimDeliveries: async () => (delivered ? [] : [delivery]),
    recordDelivered: async () => void (delivered = true),
  } as unknown as DeliveryStore;
  let delivered = false;
  const { sender, sent, answer } = hangingHandshakes();
  const dispatcher = new WebhookDispatcher({
    store,
    sender,
    now: () => new Date(0),
    logger: createLogger({ level: 'silent' }),
    origin: 'fieldcast',
  });
  const swept = dispatcher.sweep(new Date(0));
  let settled = false;
  void dispatcher.settled().then(() => (settled = true));
  await microtasks(50);
  expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
    'OPTIONS https://silent.example/a',
    'OPTIONS https://silent.example/b',
    'POST https://fast.example/hook',
  ]);
  expect([delivered, settled]).toEqual([true, false]);
  answer();
  await swept;
  await dispatcher.settled();
  expect(recorded.sort()).toEqual(['rate https://silent.example/b', 'validation new']);
  await dispatcher.stop();
});

/**
 * Handshakes in flight are bounded like sends: a pass claims only as many as are free. A receiver
 * asked for its rate gets no delivery meanwhile by the ask's lease, which every replica's claim
 * reads (docs/decisions/0495-a-receiver-asked-for-its-rate-is-held-in-the-database.md, tested in
 * webhooks.test.ts); its answer kicks a pass, which may now claim them.
 */
it('handshakes in flight are bounded; a receiver’s answer to an ask is followed by a claim', async () => {
  const limits: number[] = [];
  let asked = false;
  let claims = 0;
  const store = {
    adoptSubscriptions: async () => 0,
    claimValidations: async (_now: Date, _lease: Date, limit: number) => {
      limits.push(limit);
      return limits.length > 1 ? [] : Array.from({ length: 19 }, (_, i) => ({ id: `v${i}`, url: `https://v${i}.example/` }));
    },
    recordValidation: async () => undefined,
    claimRateAsks: async (_now: Date, _lease: Date, limit: number) =>
      asked || limit === 0 ? [] : ((asked = true), ['https://paced.example/hook']),
    recordRateAsk: async () => undefined,
    claimDeliveries: async () => {
      claims += 1;
      return [];
    },
  } as unknown as DeliveryStore;
  const { sender, answer } = hangingHandshakes();
  const dispatcher = new WebhookDispatcher({
    store,
    sender,
    now: () => new Date(0),
    logger: createLogger({ level: 'silent' }),
    origin: 'fieldcast',
  });
  const swept = dispatcher.sweep(new Date(0));
  await microtasks(50);
  // the first pass's 19 validations and 1 ask fill the 20 handshakes; the passes after it claim none
  expect(limits).toEqual([20]);
  const claimed = claims;
  answer();
  await swept;
  await dispatcher.settled();
  expect(claims).toBeGreaterThan(claimed);
  await dispatcher.stop();
});
