import type { Logger } from '@fieldcast/kit';
import { allowedRate, heldUntil, MAX_BACKOFF_MS, nextAttemptDelayMs, signatureHeaders } from '../domain/webhook-delivery.js';
import type { AttemptRecord, ClaimedDelivery, DeliveryStore } from '../webhook-store.js';
import type { SendResult, WebhookSender } from './sender.js';

/** The most sends this dispatcher has in flight at once, whatever the receivers' speed. */
const IN_FLIGHT_MAX = 100;
/**
 * The most sends one subscription has in flight at once, across replicas (its leased deliveries):
 * a slow receiver fills its own share, never the others'.
 */
export const SENDS_PER_SUBSCRIPTION = 8;
/** The most handshakes (validations and receivers asked for their rate) in flight at once; also subscriptions adopted per pass. */
const VALIDATIONS = 20;
/**
 * How long after a receiver gave no readable rate, when asked for it again, it is asked once more:
 * as long as the longest pause between retries, so a receiver that no longer answers handshakes
 * gets one an hour (docs/decisions/0423-a-rate-never-read-is-asked-for.md).
 */
const ASK_RATE_AGAIN_MS = MAX_BACKOFF_MS;
/** A claim outlives the longest send (10 s) with room: a replica that dies holding one frees it after this. */
const LEASE_MS = 30_000;
/** How often the background task passes (retries, claims a dead replica left behind, paced requests). */
export const SWEEP_EVERY_MS = 1000;

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

const is2xx = (r: SendResult): boolean => r.ok && r.statusCode >= 200 && r.statusCode < 300;

function attemptOf(time: Date, result: SendResult): AttemptRecord {
  return result.ok
    ? { time: time.toISOString(), statusCode: result.statusCode, error: null, durationMs: result.durationMs }
    : { time: time.toISOString(), statusCode: null, error: result.error, durationMs: result.durationMs };
}

/**
 * Sends what the delivery state says is due (docs/decisions/0260-webhook-delivery.md): the
 * handshake of subscriptions still validating and of receivers asked for their rate, and the first
 * pending delivery of each (subscription, resource), each claimed with a lease so replicas never
 * send the same one at once. Each handshake and each send goes on by itself and records its own
 * outcome when it ends, so a slow receiver holds back only its own deliveries; at most
 * IN_FLIGHT_MAX sends are in flight, SENDS_PER_SUBSCRIPTION of one subscription, and VALIDATIONS
 * handshakes. Passes are driven by the fan-out consumer as soon as it adds deliveries
 * (`kick`), by each send that ends (its resource's next event may be due now) and by the
 * background task (`sweep`) for retries and for claims a dead replica left behind.
 */
export class WebhookDispatcher {
  private readonly random: () => number;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** one pass at a time, so the free slots a pass counts are its own */
  private passing: Promise<unknown> = Promise.resolve();
  private readonly sending = new Set<Promise<void>>();
  private readonly handshaking = new Set<Promise<void>>();
  /** the pass armed for when a receiver's allowed rate lets its next request go, and when (ms of the dispatcher's clock) */
  private wake: { at: number; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly o: DispatcherOptions) {
    this.random = o.random ?? Math.random;
  }

  /**
   * Runs passes until nothing more is claimed, without waiting; a kick during a run runs another
   * after it. A send that ends kicks too: a delivery it recorded may have been holding back the
   * next event of its resource (claimDeliveries), which is due now.
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
          await this.sweep(this.o.now());
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

  /** Passes at `now` until one claims nothing (what is due is claimed, up to the free slots); the sends go on after it returns. */
  async sweep(now: Date): Promise<number> {
    let started = 0;
    for (;;) {
      if (this.stopped) return started;
      const claimed = await this.pass(now);
      if (claimed === 0) return started;
      started += claimed;
    }
  }

  /**
   * One pass at `now` or later (each claim reads the clock when it is made): claims of
   * handshakes, then of due deliveries, up to the free slots, each started at once. Returns how
   * many deliveries it claimed; their sends and the handshakes go on (see `settled`).
   */
  pass(now: Date): Promise<number> {
    const pass = this.passing.then(() => this.claimAndSend(now));
    this.passing = pass.catch(() => undefined);
    return pass;
  }

  private async claimAndSend(passAt: Date): Promise<number> {
    // Each claim is dated when it is made, not when the pass began: a pass may have queued behind
    // another's. Dated earlier, a lease would end before LEASE_MS (another replica sending the
    // delivery again meanwhile), a paced receiver's hold would move on from a time already past (its
    // next request going at once, over the rate it allowed), and the attempt would be signed and
    // logged as sent before it was.
    const at = (): Date => new Date(Math.max(passAt.getTime(), this.o.now().getTime()));
    const leaseFrom = (now: Date): Date => new Date(now.getTime() + LEASE_MS);
    // first, so what the previous release's replicas created during a rolling update is validated and claimed like the rest
    await this.o.store.adoptSubscriptions(VALIDATIONS);
    // Handshakes are not awaited: one to a receiver that never answers takes the send timeout, and
    // every other receiver's deliveries would wait for it (docs/interface.md: a slow receiver delays
    // only its own subscription). A validating subscription gets no delivery until its handshake is
    // recorded (the claim takes active ones), and a receiver asked for its rate none from any
    // replica until it answers (the ask's lease, which the claim reads).
    if (this.handshaking.size < VALIDATIONS) {
      const validating = at();
      const validations = await this.o.store.claimValidations(validating, leaseFrom(validating), VALIDATIONS - this.handshaking.size);
      for (const s of validations) this.start(this.handshaking, this.validate(s), { subscription: s.id });
    }
    if (this.handshaking.size < VALIDATIONS) {
      const asking = at();
      const asks = await this.o.store.claimRateAsks(asking, leaseFrom(asking), VALIDATIONS - this.handshaking.size);
      for (const url of asks) this.start(this.handshaking, this.askRate(url), { receiver: url });
    }
    const free = IN_FLIGHT_MAX - this.sending.size;
    if (free <= 0) return 0;
    const now = at();
    const claimed = await this.o.store.claimDeliveries(now, leaseFrom(now), free, SENDS_PER_SUBSCRIPTION);
    const paced = claimed.flatMap((d) => (d.pacedUntil ? [d.pacedUntil.getTime()] : []));
    if (paced.length > 0) this.wakeAt(Math.min(...paced));
    for (const delivery of claimed) this.start(this.sending, this.attempt(delivery, now), { delivery: delivery.id });
    return claimed.length;
  }

  /**
   * Lets `work` (a send or a handshake, which records its own outcome) go on beside the passes,
   * kept in `inFlight` until it ends; then a pass, since what it recorded may have made a delivery
   * due (the next event of a resource, or a subscription's first once it is validated).
   */
  private start(inFlight: Set<Promise<void>>, work: Promise<void>, about: Record<string, string>): void {
    const tracked: Promise<void> = work
      .catch((err: unknown) => this.o.logger.error({ err, ...about }, 'recording a webhook request failed'))
      .finally(() => {
        inFlight.delete(tracked);
        this.kick();
      });
    inFlight.add(tracked);
  }

  /**
   * A pass when the dispatcher's clock reaches `at` (ms), when a paced subscription's next request
   * may go: without it a rate faster than one request per SWEEP_EVERY_MS would be slowed to the
   * background task's pace. Longer pauses are the task's; one wake is armed at a time, the
   * earliest. A timer measures the event loop's time, which can run ahead of the clock the hold
   * was set by (it is read when the loop turns, before the work that armed the timer): one that
   * fires before the clock reaches `at` waits out the rest, else its pass would find the receiver
   * still held and nothing would wake the dispatcher again. A clock that did not move at all
   * (a test's) gets the pass anyway.
   */
  private wakeAt(at: number): void {
    const armed = this.o.now().getTime();
    const ms = at - armed;
    if (this.stopped || ms > SWEEP_EVERY_MS) return;
    if (this.wake && this.wake.at <= at) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = setTimeout(
      () => {
        this.wake = null;
        const now = this.o.now().getTime();
        if (now < at && now > armed) this.wakeAt(at);
        else this.kick();
      },
      Math.max(0, ms),
    );
    timer.unref();
    this.wake = { at, timer };
  }

  /** Resolves once no pass runs and no send or handshake is in flight (tests, and `stop`). */
  async settled(): Promise<void> {
    do await Promise.all([this.running, this.passing, ...this.sending, ...this.handshaking]);
    while (this.running || this.sending.size > 0 || this.handshaking.size > 0);
  }

  /** One attempt, recorded when it ends: the pause before a retry counts from then. */
  private async attempt(delivery: ClaimedDelivery, started: Date): Promise<void> {
    const result = await this.send(delivery, started);
    const attempt = attemptOf(started, result);
    const ended = this.o.now();
    if (is2xx(result)) {
      await this.o.store.recordDelivered([{ delivery, attempt }], ended);
      return;
    }
    if (result.ok && result.statusCode === 410) {
      await this.o.store.recordGone(delivery, attempt, ended);
      this.o.logger.warn({ delivery: delivery.id, subscription: delivery.subscriptionId }, 'paused a webhook subscription: 410 Gone');
      return;
    }
    const retryAfter = result.ok ? result.headers['retry-after'] : undefined;
    const delayMs = nextAttemptDelayMs(delivery.attemptCount + 1, this.random(), retryAfter, ended);
    const status = await this.o.store.recordFailed(delivery, attempt, ended, delayMs, heldUntil(retryAfter, ended));
    if (status === 'dead')
      this.o.logger.warn({ delivery: delivery.id, subscription: delivery.subscriptionId }, 'dead-lettered a webhook delivery');
  }

  /**
   * The CloudEvents webhook validation handshake (HTTP 1.1 Web Hooks for Event Delivery, 4.1
   * and 4.2): an OPTIONS request naming the sender in WebHook-Request-Origin; the target agrees
   * with a 2xx whose WebHook-Allowed-Origin is that origin or `*`, and whose WebHook-Allowed-Rate,
   * when there is one, is `*` or a positive whole number of requests per minute, which the
   * deliveries then keep to. Anything else fails it. No WebHook-Request-Rate is sent: the sender
   * has no rate of its own to ask for (docs/decisions/0396-receivers-allowed-rate.md).
   */
  private async validate(subscription: { id: string; url: string }): Promise<void> {
    const outcome = await this.handshake(subscription.url);
    await this.o.store.recordValidation(subscription.id, outcome, this.o.now());
  }

  private async handshake(url: string): Promise<{ ok: true; allowedRate: number | null } | { ok: false; message: string }> {
    const result = await this.o.sender.send({ url, method: 'OPTIONS', headers: { 'webhook-request-origin': this.o.origin } });
    return this.validation(result);
  }

  /**
   * The handshake again, to a receiver whose subscriptions were validated before its rate was
   * kept, for the rate alone: its consent was given, so an answer that grants no readable rate
   * changes no subscription; deliveries go on as before and it is asked again ASK_RATE_AGAIN_MS
   * later (docs/decisions/0423-a-rate-never-read-is-asked-for.md).
   */
  private async askRate(url: string): Promise<void> {
    const outcome = await this.handshake(url);
    const ended = this.o.now();
    if (!outcome.ok) this.o.logger.warn({ receiver: url, reason: outcome.message }, 'a webhook receiver asked again gave no rate');
    await this.o.store.recordRateAsk(
      url,
      outcome.ok ? outcome : { ok: false, askAgain: new Date(ended.getTime() + ASK_RATE_AGAIN_MS) },
      ended,
    );
  }

  private validation(result: SendResult): { ok: true; allowedRate: number | null } | { ok: false; message: string } {
    if (!result.ok) return { ok: false, message: `validation request failed: ${result.error}` };
    if (!is2xx(result)) return { ok: false, message: `validation request answered ${result.statusCode}` };
    const origin = result.headers['webhook-allowed-origin'];
    if (origin !== '*' && origin !== this.o.origin)
      return { ok: false, message: `validation answer has no WebHook-Allowed-Origin: ${this.o.origin} (or *)` };
    const rate = allowedRate(result.headers['webhook-allowed-rate']);
    if (!rate.ok)
      return {
        ok: false,
        message: `validation answer's WebHook-Allowed-Rate: ${JSON.stringify(rate.value.slice(0, 100))} is neither * nor a positive whole number of requests per minute`,
      };
    return { ok: true, allowedRate: rate.perMinute };
  }

  /**
   * One attempt: the stored CloudEvent, structured mode, signed for this attempt's time, naming
   * the sender in WebHook-Request-Origin as every delivery request must (HTTP 1.1 Web Hooks for
   * Event Delivery 4.1). The webhook-id is the delivery's: Standard Webhooks' message id, the same
   * on every attempt, but another for the same event sent to another subscription, which a
   * receiver dropping repeats by it must still take (docs/decisions/0400-webhook-id-per-delivery.md).
   */
  private send(delivery: ClaimedDelivery, now: Date): Promise<SendResult> {
    return this.o.sender.send({
      url: delivery.url,
      method: 'POST',
      headers: {
        'content-type': 'application/cloudevents+json; charset=utf-8',
        'webhook-request-origin': this.o.origin,
        ...signatureHeaders(delivery.secrets, delivery.id, Math.floor(now.getTime() / 1000), delivery.body),
      },
      body: delivery.body,
    });
  }

  /** No new pass starts; the sends and handshakes under way end and are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.wake) clearTimeout(this.wake.timer);
    this.wake = null;
    await this.settled();
    this.o.sender.close();
  }
}
