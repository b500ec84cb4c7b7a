import { createLogger } from '@fieldcast/kit';
import type { DeliveryStore } from '../src/webhook-store.js';
import { WebhookDispatcher } from '../src/webhooks/dispatcher.js';
import type { WebhookSender } from '../src/webhooks/sender.js';

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
