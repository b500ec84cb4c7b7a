import type { Logger } from '@fieldcast/kit';
import { signatureHeaders } from '../domain/webhook-delivery.js';
import type { AttemptRecord, ClaimedDelivery, DeliveryStore } from '../webhook-store.js';
import type { SendResult, WebhookSender } from './sender.js';

/** Deliveries claimed per pass; they are sent at once, so this is also the most in flight per dispatcher. */
const BATCH = 100;
/** Subscriptions validated per pass. */
const VALIDATIONS = 20;
/** A claim outlives the longest send (10 s) with room: a replica that dies holding one frees it after this. */
const LEASE_MS = 30_000;

export interface DispatcherOptions {
  store: DeliveryStore;
  sender: WebhookSender;
  now: () => Date;
  logger: Logger;
  /** the value of WebHook-Request-Origin (CloudEvents webhook spec 4.1): who is sending */
  origin: string;
  /** in [0, 1): the backoff's jitter */
  random?: () => number;
}

const is2xx = (r: SendResult): r is Extract<SendResult, { ok: true }> => r.ok && r.statusCode >= 200 && r.statusCode < 300;

function attemptOf(time: Date, result: SendResult): AttemptRecord {
  return result.ok
    ? { time: time.toISOString(), statusCode: result.statusCode, error: null, durationMs: result.durationMs }
    : { time: time.toISOString(), statusCode: null, error: result.error, durationMs: result.durationMs };
}

/**
 * Sends what the delivery state says is due (docs/decisions/0260-webhook-delivery.md): first the
 * handshake of subscriptions still validating, then the first pending delivery of each
 * (subscription, resource), claimed with a lease so replicas never send the same one at once.
 * A pass is driven by the fan-out consumer as soon as it adds deliveries (`kick`) and by the
 * background task for retries and for claims a dead replica left behind.
 */
export class WebhookDispatcher {
  private readonly random: () => number;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly o: DispatcherOptions) {
    this.random = o.random ?? Math.random;
  }

  /**
   * Runs passes until nothing is due, without waiting; a kick during a pass runs another after it.
   * A pass that sent anything is followed by another: a delivery it recorded may have been holding
   * back the next event of its resource (claimDeliveries), which is due now.
   */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          while (!this.stopped && (await this.pass(this.o.now())) > 0);
        } catch (err) {
          this.o.logger.error({ err }, 'webhook pass failed');
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
      // A kick that came after the loop's last look at `again` but before this: its run starts now.
      if (this.again) this.kick();
    });
  }

  /** One pass at `now`: validations, then one batch of deliveries. Returns how many deliveries it sent. */
  async pass(now: Date): Promise<number> {
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const validations = await this.o.store.claimValidations(now, leaseUntil, VALIDATIONS);
    await Promise.all(validations.map((s) => this.validate(s)));
    const claimed = await this.o.store.claimDeliveries(now, leaseUntil, BATCH);
    if (claimed.length === 0) return 0;
    const results = await Promise.all(claimed.map(async (d) => ({ delivery: d, result: await this.send(d, now) })));
    const delivered = results.filter((r) => is2xx(r.result)).map((r) => ({ delivery: r.delivery, attempt: attemptOf(now, r.result) }));
    await this.o.store.recordDelivered(delivered, now);
    for (const { delivery, result } of results) {
      if (is2xx(result)) continue;
      const status = await this.o.store.recordFailed(delivery, attemptOf(now, result), now, this.random());
      if (status === 'dead')
        this.o.logger.warn({ delivery: delivery.id, subscription: delivery.subscriptionId }, 'dead-lettered a webhook delivery');
    }
    return claimed.length;
  }

  /**
   * The CloudEvents webhook validation handshake (HTTP 1.1 Web Hooks for Event Delivery, 4.1
   * and 4.2): an OPTIONS request naming the sender in WebHook-Request-Origin; the target agrees
   * with a 2xx whose WebHook-Allowed-Origin is that origin or `*`. Anything else fails it.
   */
  private async validate(subscription: { id: string; url: string }): Promise<void> {
    const result = await this.o.sender.send({
      url: subscription.url,
      method: 'OPTIONS',
      headers: { 'webhook-request-origin': this.o.origin, 'webhook-request-rate': '120' },
    });
    const allowed = result.ok ? result.headers['webhook-allowed-origin'] : undefined;
    const ok = is2xx(result) && (allowed === '*' || allowed === this.o.origin);
    const message = !result.ok
      ? `validation request failed: ${result.error}`
      : result.statusCode < 200 || result.statusCode >= 300
        ? `validation request answered ${result.statusCode}`
        : `validation answer has no WebHook-Allowed-Origin: ${this.o.origin} (or *)`;
    await this.o.store.recordValidation(subscription.id, ok ? { ok: true } : { ok: false, message });
  }

  /** One attempt: the stored CloudEvent, structured mode, signed for this attempt's time. */
  private send(delivery: ClaimedDelivery, now: Date): Promise<SendResult> {
    return this.o.sender.send({
      url: delivery.url,
      method: 'POST',
      headers: {
        'content-type': 'application/cloudevents+json; charset=utf-8',
        ...signatureHeaders(delivery.secret, delivery.eventId, Math.floor(now.getTime() / 1000), delivery.body),
      },
      body: delivery.body,
    });
  }

  /** No new pass starts; the one under way ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    this.o.sender.close();
  }
}
