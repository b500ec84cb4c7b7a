import type { Knex } from 'knex';
import { topicFor } from '@fieldcast/bus';
import { OwnedResourceStore, type Outbox, type OwnedResourceTable } from '@fieldcast/db';
import { ConflictError, InvalidRequestError, NotFoundError } from '@fieldcast/kit';
import type { Delivery, Event, SubscriptionFilter } from '@fieldcast/schemas';
import { filterMatches, receiverOf, subscriptionView, type SubscriptionRecord } from './domain/subscriptions.js';
import {
  ATTEMPTS_KEPT,
  cloudEventBody,
  cloudEventType,
  DEAD_LETTER_AFTER_MS,
  DELIVERY_RETENTION_MS,
  PAUSE_AFTER_DEAD_LETTERS,
} from './domain/webhook-delivery.js';
import { AREA } from './store.js';

export const SUBSCRIPTIONS_TOPIC = topicFor(AREA, 'subscriptions');

const jsonOf = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

const SUBSCRIPTIONS: OwnedResourceTable<SubscriptionRecord> = {
  area: AREA,
  table: 'subscriptions',
  kind: 'subscription',
  topic: SUBSCRIPTIONS_TOPIC,
  // Never the secret: it is shown once, by the create answer, from the record just built.
  columns: ['id', 'account_id', 'url', 'filter', 'description', 'status', 'status_message', 'created_at'],
  fromRow(row) {
    return {
      id: row.id as string,
      accountId: row.account_id as string,
      url: row.url as string,
      filter: jsonOf(row.filter as SubscriptionFilter),
      description: row.description as string,
      status: row.status as SubscriptionRecord['status'],
      statusMessage: (row.status_message as string | null) ?? null,
      // the receiver's: SubscriptionStore reads it beside the record
      allowedRate: null,
      createdTime: new Date(row.created_at as Date),
    };
  },
  toRow(record) {
    return {
      id: record.id,
      account_id: record.accountId,
      url: record.url,
      receiver: receiverOf(record.url),
      filter: JSON.stringify(record.filter),
      description: record.description,
      ...(record.secret !== undefined ? { secret: record.secret } : {}),
      status: record.status,
      status_message: record.statusMessage,
    };
  },
  createdAt: (record) => record.createdTime,
  snapshot: subscriptionView,
};

/**
 * The receiver's row, made with its rate not yet read if it has none. Every subscription's receiver
 * has one, which the claim joins, made before a subscription names it: so the claim finds it even
 * where a replica of the previous release, which knows no receivers, validated the subscription
 * during a rolling update (docs/decisions/0419-migrations-keep-the-previous-release-working.md).
 */
async function receiverRow(db: Knex, url: string): Promise<void> {
  await db.withSchema(AREA).table('receivers').insert({ url }).onConflict('url').ignore();
}

/**
 * Webhook subscriptions of accounts (docs/interface.md, webhooks): owner-only, like fields. A
 * subscription read shows the rate its receiver allows, which is the receiver's, shared with every
 * other subscription to its URL (docs/decisions/0422-the-receiver-is-the-url.md).
 */
export class SubscriptionStore extends OwnedResourceStore<SubscriptionRecord> {
  constructor(
    private readonly db: Knex,
    outbox: Outbox,
    now: () => Date,
  ) {
    super(db, outbox, now, SUBSCRIPTIONS);
  }

  override async create(record: SubscriptionRecord, maxPerAccount?: number): Promise<SubscriptionRecord | null> {
    await receiverRow(this.db, receiverOf(record.url));
    return super.create(record, maxPerAccount);
  }

  /** Each subscription with the rate its receiver allows, which the receivers' table holds. */
  protected override async served(records: SubscriptionRecord[], db: Knex | Knex.Transaction = this.db): Promise<SubscriptionRecord[]> {
    const urls = [...new Set(records.map((r) => receiverOf(r.url)))];
    const rows: { url: string; allowed_rate: number | null }[] =
      urls.length === 0 ? [] : await db.withSchema(AREA).table('receivers').select('url', 'allowed_rate').whereIn('url', urls);
    const rates = new Map(rows.map((r) => [r.url, r.allowed_rate]));
    return records.map((r) => ({ ...r, allowedRate: rates.get(receiverOf(r.url)) ?? null }));
  }
}

/** A stored event as the fan-out receives it (the events area's own topic, STORED_TOPIC). */
export interface StoredEvent {
  event: Event;
  appId: string;
  /** the account that may see it; null: every account */
  owner: string | null;
}

/** A delivery claimed for one attempt, with where and how to send it. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  body: string;
  attemptCount: number;
  firstAttemptAt: Date | null;
  subscriptionId: string;
  url: string;
  /** the receiver the URL names (receiverOf): its Retry-After holds every subscription to it */
  receiver: string;
  /** what the attempt is signed with: the secret, then the one it replaced while that is still honoured */
  secrets: string[];
  /** when the receiver's allowed rate lets its next request go; null: its rate is not limited */
  pacedUntil: Date | null;
}

/** One attempt's outcome, as the delivery's log keeps it. */
export interface AttemptRecord {
  time: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  type: string;
  status: Delivery['status'];
  attempts: AttemptRecord[] | string;
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
  dead_at: Date | null;
}

/**
 * A delivery as its owner reads it. A pending one goes at its next attempt, or when its receiver's
 * hold ends, whichever is later (docs/decisions/0375-retry-after-holds-the-url.md).
 */
function deliveryView(row: DeliveryRow, heldUntil: Date | null): Delivery {
  const next = row.next_attempt_at === null ? null : new Date(row.next_attempt_at);
  const goes = next !== null && heldUntil !== null && heldUntil > next ? heldUntil : next;
  return {
    id: row.id,
    eventId: row.event_id,
    type: row.type,
    status: row.status,
    attempts: jsonOf(row.attempts),
    attemptCount: row.attempt_count,
    nextAttemptTime: row.status === 'pending' ? iso(goes) : null,
    createdTime: iso(row.created_at)!,
    deliveredTime: iso(row.delivered_at),
    deadTime: iso(row.dead_at),
  };
}

/** Ended deliveries deleted per statement, so a pass never holds a long lock or a large transaction. */
const PRUNE_BATCH = 5000;

/** Why a resumed subscription is validating again (docs/decisions/0260-webhook-delivery.md, pausing). */
const RESUMED_MESSAGE = 'resumed: the URL is validated again (CloudEvents handshake) before deliveries are sent';

/**
 * Why a subscription whose receiver answered 410 Gone, to it or to another of its account's
 * subscriptions to the URL, is paused (docs/decisions/0457-410-gone-retires-the-url-for-the-account.md).
 */
const GONE_MESSAGE =
  'paused: the URL answered 410 Gone, so nothing more is sent to it; retry the dead letter it made (of this or another of your subscriptions to the URL) to resume them';

/**
 * Why a subscription is paused (`subscriptions.paused_by`, null when it is not), kept apart from
 * the message its owner reads, which may be reworded: what a resume takes with it goes by this
 * (docs/decisions/0494-why-a-subscription-is-paused-is-a-fact-of-its-own.md).
 */
type PausedBy = 'gone' | 'dead_letters';

/** What the owner reads of each reason (statusMessage). */
const PAUSED_MESSAGES: Record<PausedBy, string> = {
  gone: GONE_MESSAGE,
  dead_letters: `paused after ${PAUSE_AFTER_DEAD_LETTERS} dead letters in a row; retry a dead letter, or validate the subscription again, to resume`,
};

const DELIVERY_COLUMNS = 'id, event_id, type, status, attempts, attempt_count, next_attempt_at, created_at, delivered_at, dead_at';
/**
 * Receiver `r` may be sent to at :now: no Retry-After hold or pause for its rate runs
 * (`held_until`), and no replica is asking it for its rate (`rate_ask_lease_until`).
 */
const SENDABLE = '(r.held_until is null or r.held_until <= :now) and (r.rate_ask_lease_until is null or r.rate_ask_lease_until <= :now)';
/** The attempt log with one more entry, the oldest dropped past ATTEMPTS_KEPT. */
const APPENDED = `case when jsonb_array_length(d.attempts) >= ${ATTEMPTS_KEPT} then d.attempts - 0 else d.attempts end`;

/**
 * The delivery state of every subscription (docs/decisions/0260-webhook-delivery.md): fan-out,
 * claims with leases, outcomes, and what the owner reads. Every replica works from it, so none
 * keeps a delivery to itself.
 */
export class DeliveryStore {
  constructor(private readonly knex: Knex) {}

  private t(table: 'subscriptions' | 'deliveries' | 'receivers') {
    return this.knex.withSchema(AREA).table(table);
  }

  /**
   * Adds a pending delivery of the event to each subscription that may see it (its account's
   * own events and public ones, docs/decisions/0027-event-visibility.md) and whose filter takes
   * it; a repeat of the same event adds nothing. Subscriptions that failed validation or are
   * paused get none. Returns how many were added.
   */
  async fanOut(stored: StoredEvent, now: Date): Promise<number> {
    const query = this.t('subscriptions').select('id', 'filter').whereIn('status', ['validating', 'active']);
    if (stored.owner !== null) query.where({ account_id: stored.owner });
    const subscriptions: { id: string; filter: SubscriptionFilter | string }[] = await query;
    const matched = {
      app: stored.event.app,
      appId: stored.appId,
      namespace: stored.event.namespace,
      origin: stored.event.origin,
      tagged: stored.event.tagged,
    };
    const takers = subscriptions.filter((s) => filterMatches(jsonOf(s.filter), matched));
    if (takers.length === 0) return 0;
    const body = cloudEventBody(stored.event, stored.appId);
    const type = cloudEventType(stored.event.namespace);
    const rows: { id: string }[] = await this.t('deliveries')
      .insert(
        takers.map((s) => ({
          id: crypto.randomUUID(),
          subscription_id: s.id,
          event_id: stored.event.id,
          order_key: stored.event.origin.id,
          type,
          body,
          status: 'pending',
          next_attempt_at: now,
          created_at: now,
        })),
      )
      .onConflict(['subscription_id', 'event_id'])
      .ignore()
      .returning('id');
    return rows.length;
  }

  /**
   * Subscriptions the previous release created during a rolling update, which name no receiver
   * (docs/decisions/0419-migrations-keep-the-previous-release-working.md): each is given its
   * receiver (receiverOf), whose row is made first, its rate unread when new, so it is read by the
   * subscription's handshake or, where that release validated it, asked for
   * (docs/decisions/0423-a-rate-never-read-is-asked-for.md). Until then its validation and its
   * claims wait, since both go by the receiver. Returns how many were adopted.
   */
  async adoptSubscriptions(limit: number): Promise<number> {
    const rows: { id: string; url: string }[] = await this.t('subscriptions').select('id', 'url').whereNull('receiver').limit(limit);
    for (const row of rows) {
      const receiver = receiverOf(row.url);
      await receiverRow(this.knex, receiver);
      await this.t('subscriptions').where({ id: row.id }).whereNull('receiver').update({ receiver });
    }
    return rows.length;
  }

  /** Subscriptions still to validate, each leased to the caller until `leaseUntil`; one not yet adopted waits for it. */
  async claimValidations(now: Date, leaseUntil: Date, limit: number): Promise<{ id: string; url: string }[]> {
    const { rows } = await this.knex.raw(
      `update ${AREA}.subscriptions s set lease_until = :leaseUntil
       where s.id in (select id from ${AREA}.subscriptions
                      where status = 'validating' and receiver is not null and (lease_until is null or lease_until <= :now)
                      order by created_at limit :limit for update skip locked)
       returning s.id, s.url`,
      { now, leaseUntil, limit },
    );
    return rows;
  }

  /**
   * The handshake's outcome, with the rate the receiver allowed (requests per minute, null: no
   * limit), which from `now` holds for every subscription to its URL: the receiver's latest word
   * (docs/decisions/0422-the-receiver-is-the-url.md). A subscription that failed it drops what was
   * queued for it, which it will never receive; the receiver's rate stays as other subscriptions'
   * handshakes left it.
   */
  async recordValidation(
    id: string,
    outcome: { ok: true; allowedRate: number | null } | { ok: false; message: string },
    now: Date,
  ): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const [row]: { receiver: string }[] = await trx
        .withSchema(AREA)
        .table('subscriptions')
        .where({ id, status: 'validating' })
        .update(
          outcome.ok
            ? { status: 'active', status_message: null, paused_by: null, lease_until: null }
            : { status: 'validation_failed', status_message: outcome.message, paused_by: null, lease_until: null },
        )
        .returning('receiver');
      if (!row) return;
      if (outcome.ok) await this.rateRead(trx, row.receiver, outcome.allowedRate, now);
      // Only what is pending: deliveries that ended stay listed for DELIVERY_RETENTION_MS, the owner's record of what was sent.
      else await trx.withSchema(AREA).table('deliveries').where({ subscription_id: id, status: 'pending' }).delete();
    });
  }

  /**
   * The rate a receiver's handshake answer allowed, read at `now`: it replaces what any earlier
   * answer allowed, and ends an ask under way, whose deliveries may go at it.
   */
  private async rateRead(db: Knex | Knex.Transaction, url: string, allowedRate: number | null, now: Date): Promise<void> {
    await db
      .withSchema(AREA)
      .table('receivers')
      .insert({ url, allowed_rate: allowedRate, rate_read_at: now, rate_asked_until: null, rate_ask_lease_until: null })
      .onConflict('url')
      .merge(['allowed_rate', 'rate_read_at', 'rate_asked_until', 'rate_ask_lease_until']);
  }

  /**
   * Receivers of active subscriptions whose rate was never read from a handshake (their
   * subscriptions were validated before the rate was kept), each leased to the caller until
   * `leaseUntil`: they are asked again (docs/decisions/0423-a-rate-never-read-is-asked-for.md).
   * The lease (`rate_ask_lease_until`) holds the receiver's deliveries, whichever replica claims
   * them, until the answer is recorded or the lease ends
   * (docs/decisions/0495-a-receiver-asked-for-its-rate-is-held-in-the-database.md);
   * `rate_asked_until` gets the same time, so no replica asks again meanwhile, the previous
   * release's too, which claims asks by it alone.
   */
  async claimRateAsks(now: Date, leaseUntil: Date, limit: number): Promise<string[]> {
    const { rows } = await this.knex.raw(
      `update ${AREA}.receivers r set rate_asked_until = :leaseUntil, rate_ask_lease_until = :leaseUntil
       where r.url in (select q.url from ${AREA}.receivers q
                       where q.rate_read_at is null and (q.rate_asked_until is null or q.rate_asked_until <= :now)
                         and exists (select from ${AREA}.subscriptions s where s.receiver = q.url and s.status = 'active')
                       order by q.url limit :limit for update skip locked)
       returning r.url`,
      { now, leaseUntil, limit },
    );
    return (rows as { url: string }[]).map((r) => r.url);
  }

  /**
   * What asking a receiver for its rate came to: the rate its answer allowed, read at `now`, or
   * none readable, and then it is asked again no sooner than `askAgain`; meanwhile its deliveries go
   * on as they went before. Either way the ask's lease ends, and with it the hold on its deliveries.
   */
  async recordRateAsk(
    url: string,
    outcome: { ok: true; allowedRate: number | null } | { ok: false; askAgain: Date },
    now: Date,
  ): Promise<void> {
    if (outcome.ok) await this.rateRead(this.knex, url, outcome.allowedRate, now);
    else
      await this.t('receivers')
        .where({ url })
        .whereNull('rate_read_at')
        .update({ rate_asked_until: outcome.askAgain, rate_ask_lease_until: null });
  }

  /**
   * Due deliveries of active subscriptions whose receiver asked for no pause still running
   * (`held_until`), each leased to the caller until `leaseUntil`: only
   * the first pending delivery of each (subscription, resource), so one resource's events reach a
   * subscriber in order, and a delivery waiting for its retry holds back the ones after it. A
   * subscription gets no more than `perSubscription` in flight, counting those other claims
   * hold (leased, not yet recorded), so a slow receiver cannot take every slot.
   *
   * The hold and the rate are the receiver's, the URL's, whatever subscriptions and accounts send
   * to it (docs/decisions/0422-the-receiver-is-the-url.md). A receiver that allowed a rate
   * (`allowed_rate`, requests per minute) gets one delivery per claim, and its hold is moved to a
   * minute / rate later, so its requests are spaced evenly and no minute holds more than the rate
   * (HTTP 1.1 Web Hooks for Event Delivery 4.2.2; docs/decisions/0396-receivers-allowed-rate.md).
   * The accounts sending to it take turns: the delivery is the earliest sendable one of the next
   * account after the one it last served (`last_account_id`), in the order of account ids, that has
   * one, so one account's backlog cannot hold back another's events
   * (docs/decisions/0443-accounts-take-turns-at-a-paced-receiver.md). The receiver's row is locked
   * with its deliveries and its hold read again once locked: a replica claiming at the same moment
   * skips it, or sees the hold the other has just moved, so replicas together keep to the rate.
   * A receiver some replica is asking for its rate (`rate_ask_lease_until`, claimRateAsks) gets
   * nothing until the answer is recorded or that lease ends, read again once locked like the hold
   * (docs/decisions/0423-a-rate-never-read-is-asked-for.md,
   * docs/decisions/0495-a-receiver-asked-for-its-rate-is-held-in-the-database.md).
   */
  async claimDeliveries(now: Date, leaseUntil: Date, limit: number, perSubscription: number): Promise<ClaimedDelivery[]> {
    const { rows } = await this.knex.raw(
      `with due as (
         select d.id, d.subscription_id, s.account_id, s.receiver, d.next_attempt_at, d.seq, r.allowed_rate,
           -- the accounts after the one the receiver last served come first, then the order from its start
           coalesce(s.account_id <= r.last_account_id, false) as turn_passed
         from ${AREA}.deliveries d
         join ${AREA}.subscriptions s on s.id = d.subscription_id and s.status = 'active'
         join ${AREA}.receivers r on r.url = s.receiver and ${SENDABLE}
         where d.status = 'pending' and d.next_attempt_at <= :now and (d.lease_until is null or d.lease_until <= :now)
           and not exists (select from ${AREA}.deliveries p
                           where p.subscription_id = d.subscription_id and p.order_key = d.order_key and p.status = 'pending' and p.seq < d.seq)),
       busy as (
         select subscription_id, count(*) as n from ${AREA}.deliveries
         where status = 'pending' and lease_until > :now and subscription_id in (select subscription_id from due)
         group by subscription_id),
       ranked as (
         select due.*, coalesce(busy.n, 0) as busy,
           row_number() over (partition by due.subscription_id order by due.next_attempt_at, due.seq) as rank
         from due left join busy using (subscription_id)),
       turns as (
         select k.id, k.next_attempt_at, k.seq, k.allowed_rate,
           row_number() over (partition by k.receiver order by k.turn_passed, k.account_id, k.next_attempt_at, k.seq) as turn
         from ranked k where k.rank + k.busy <= :perSubscription),
       picked as (
         select d.id, r.url as receiver, s.account_id from ${AREA}.deliveries d join turns k on k.id = d.id
         join ${AREA}.subscriptions s on s.id = d.subscription_id
         join ${AREA}.receivers r on r.url = s.receiver and ${SENDABLE}
         where k.allowed_rate is null or k.turn = 1
         order by k.next_attempt_at, k.seq
         limit :limit
         for update of d skip locked
         for no key update of r skip locked),
       paced as (
         update ${AREA}.receivers r
         set held_until = greatest(r.held_until, :now::timestamptz + ceil(60000000.0 / r.allowed_rate) * interval '1 microsecond'),
           last_account_id = picked.account_id
         from picked
         where r.allowed_rate is not null and r.url = picked.receiver
         returning r.url, r.held_until)
       update ${AREA}.deliveries d set lease_until = :leaseUntil
       from picked, ${AREA}.subscriptions s
       where d.id = picked.id and s.id = d.subscription_id
       returning d.id, d.event_id, d.body, d.attempt_count, d.first_attempt_at, d.subscription_id, s.url, s.receiver, s.secret,
         case when s.previous_secret_expires_at > :now then s.previous_secret end as previous_secret,
         (select paced.held_until from paced where paced.url = s.receiver) as paced_until`,
      { now, leaseUntil, limit, perSubscription },
    );
    return (rows as Record<string, unknown>[]).map((r) => ({
      id: r.id as string,
      eventId: r.event_id as string,
      body: r.body as string,
      attemptCount: r.attempt_count as number,
      firstAttemptAt: r.first_attempt_at ? new Date(r.first_attempt_at as Date) : null,
      subscriptionId: r.subscription_id as string,
      url: r.url as string,
      receiver: r.receiver as string,
      secrets: r.previous_secret ? [r.secret as string, r.previous_secret as string] : [r.secret as string],
      pacedUntil: r.paced_until ? new Date(r.paced_until as Date) : null,
    }));
  }

  /** Marks deliveries delivered, in one statement, and clears their subscriptions' runs of dead letters. */
  async recordDelivered(delivered: { delivery: ClaimedDelivery; attempt: AttemptRecord }[], now: Date): Promise<void> {
    if (delivered.length === 0) return;
    const values = JSON.stringify(delivered.map((d) => ({ id: d.delivery.id, attempt: d.attempt })));
    await this.knex.raw(
      `with done as (
         update ${AREA}.deliveries d set status = 'delivered', delivered_at = :now, lease_until = null, next_attempt_at = null,
           attempt_count = d.attempt_count + 1, first_attempt_at = coalesce(d.first_attempt_at, :now),
           attempts = ${APPENDED} || jsonb_build_array(v.attempt)
         from jsonb_to_recordset(:values::jsonb) as v(id uuid, attempt jsonb)
         where d.id = v.id
         returning d.subscription_id)
       update ${AREA}.subscriptions set dead_in_a_row = 0 where id in (select subscription_id from done) and dead_in_a_row > 0`,
      { now, values },
    );
  }

  /**
   * A failed attempt, recorded when it ended (`now`): retried `delayMs` later, or dead-lettered
   * once the delivery has failed for DEAD_LETTER_AFTER_MS; the PAUSE_AFTER_DEAD_LETTERS-th dead
   * letter in a row pauses the subscription. `heldUntil`, from the answer's Retry-After, holds
   * every delivery to the receiver until then, every subscription's to its URL, since the receiver
   * asked for no request at all before it (HTTP 1.1 Web Hooks for Event Delivery 2.2;
   * docs/decisions/0422-the-receiver-is-the-url.md). Returns the delivery's new status.
   */
  async recordFailed(
    delivery: ClaimedDelivery,
    attempt: AttemptRecord,
    now: Date,
    delayMs: number,
    heldUntil: Date | null = null,
  ): Promise<'pending' | 'dead'> {
    const first = delivery.firstAttemptAt ?? new Date(attempt.time);
    const dead = now.getTime() - first.getTime() >= DEAD_LETTER_AFTER_MS;
    await this.knex.transaction(async (trx) => {
      // greatest() ignores a null: a hold already running longer is kept.
      if (heldUntil)
        await trx.raw(`update ${AREA}.receivers set held_until = greatest(held_until, :heldUntil) where url = :url`, {
          heldUntil,
          url: delivery.receiver,
        });
      await this.recordAttempt(trx, delivery, attempt, dead ? { dead: now } : { next: new Date(now.getTime() + delayMs) });
      if (dead) await this.deadLettered(trx, delivery.subscriptionId, { threshold: PAUSE_AFTER_DEAD_LETTERS, by: 'dead_letters' });
    });
    return dead ? 'dead' : 'pending';
  }

  /**
   * The receiver answered 410 Gone: the target is retired and no further request is sent
   * (HTTP 1.1 Web Hooks for Event Delivery 2.2). The delivery is a dead letter at once and the
   * subscription is paused, saying why, with every other active subscription of its account to the
   * receiver; another account's are left to their own answers
   * (docs/decisions/0457-410-gone-retires-the-url-for-the-account.md). Retrying the dead letter
   * resumes them through the handshake, like any paused subscription.
   */
  async recordGone(delivery: ClaimedDelivery, attempt: AttemptRecord, now: Date): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await this.recordAttempt(trx, delivery, attempt, { dead: now });
      await this.deadLettered(trx, delivery.subscriptionId, { threshold: 1, by: 'gone' });
      await trx.raw(
        `update ${AREA}.subscriptions o set status = 'paused', status_message = :message, paused_by = 'gone'
         from ${AREA}.subscriptions s
         where s.id = :id and o.account_id = s.account_id and o.receiver = s.receiver and o.status = 'active'`,
        { message: PAUSED_MESSAGES.gone, id: delivery.subscriptionId },
      );
    });
  }

  /** Appends the attempt to the delivery's log: pending again from `next`, or a dead letter since `dead`. */
  private async recordAttempt(
    trx: Knex.Transaction,
    delivery: ClaimedDelivery,
    attempt: AttemptRecord,
    outcome: { next: Date } | { dead: Date },
  ): Promise<void> {
    const dead = 'dead' in outcome;
    await trx.raw(
      `update ${AREA}.deliveries d set status = :status, lease_until = null, next_attempt_at = :next, dead_at = :deadAt,
         attempt_count = d.attempt_count + 1, first_attempt_at = coalesce(d.first_attempt_at, :started),
         attempts = ${APPENDED} || jsonb_build_array(:attempt::jsonb)
       where d.id = :id`,
      {
        status: dead ? 'dead' : 'pending',
        next: dead ? null : outcome.next,
        deadAt: dead ? outcome.dead : null,
        started: new Date(attempt.time),
        attempt: JSON.stringify(attempt),
        id: delivery.id,
      },
    );
  }

  /** One more dead letter in the subscription's run; at `threshold` an active subscription is paused, `by` saying why. */
  private async deadLettered(trx: Knex.Transaction, subscriptionId: string, pause: { threshold: number; by: PausedBy }): Promise<void> {
    await trx.raw(
      `update ${AREA}.subscriptions set dead_in_a_row = dead_in_a_row + 1,
         status = case when dead_in_a_row + 1 >= :threshold and status = 'active' then 'paused' else status end,
         status_message = case when dead_in_a_row + 1 >= :threshold and status = 'active' then :message else status_message end,
         paused_by = case when dead_in_a_row + 1 >= :threshold and status = 'active' then :by else paused_by end
       where id = :id`,
      { threshold: pause.threshold, message: PAUSED_MESSAGES[pause.by], by: pause.by, id: subscriptionId },
    );
  }

  /**
   * Deletes the deliveries that ended (delivered, or dead letters) more than
   * DELIVERY_RETENTION_MS before `now`, in batches; pending ones are never touched. Returns how
   * many were deleted. Each statement stands alone, so a pass cut short resumes where it stopped.
   */
  async prune(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_MS);
    let deleted = 0;
    for (;;) {
      const result = await this.knex.raw(
        `delete from ${AREA}.deliveries where id in (
           select id from ${AREA}.deliveries
           where status in ('delivered', 'dead') and coalesce(delivered_at, dead_at) < :cutoff
           limit ${PRUNE_BATCH})`,
        { cutoff },
      );
      const count = Number((result as { rowCount?: number }).rowCount ?? 0);
      deleted += count;
      if (count < PRUNE_BATCH) return deleted;
    }
  }

  /**
   * The account's subscription (another account's reads as a missing one): until when its
   * receiver holds its deliveries, null when it does not.
   */
  private async owned(accountId: string, subscriptionId: string): Promise<{ heldUntil: Date | null }> {
    const { rows } = await this.knex.raw(
      `select r.held_until from ${AREA}.subscriptions s left join ${AREA}.receivers r on r.url = s.receiver
       where s.id = :subscriptionId and s.account_id = :accountId`,
      { subscriptionId, accountId },
    );
    const row = (rows as { held_until: Date | null }[])[0];
    if (!row) throw new NotFoundError('subscription', subscriptionId);
    return { heldUntil: row.held_until ? new Date(row.held_until as Date) : null };
  }

  /** A page of a subscription's deliveries, newest first, after the delivery `after` (a keyset cursor). */
  async deliveries(
    accountId: string,
    subscriptionId: string,
    page: { limit: number; after?: string; status?: Delivery['status'] },
  ): Promise<{ deliveries: Delivery[]; more: boolean }> {
    const { heldUntil } = await this.owned(accountId, subscriptionId);
    const query = this.t('deliveries')
      .select(DELIVERY_COLUMNS.split(', '))
      .where({ subscription_id: subscriptionId })
      .orderBy('seq', 'desc')
      .limit(page.limit + 1);
    if (page.status) query.where({ status: page.status });
    if (page.after !== undefined) {
      const cursor = await this.t('deliveries').select('seq').where({ id: page.after, subscription_id: subscriptionId }).first();
      if (!cursor)
        throw new InvalidRequestError('unknown_cursor', `after: no delivery ${page.after} of this subscription to continue from`, [
          { path: 'after', message: 'must be the id of one of the subscription’s deliveries' },
        ]);
      query.where('seq', '<', cursor.seq);
    }
    const rows: DeliveryRow[] = await query;
    return { deliveries: rows.slice(0, page.limit).map((row) => deliveryView(row, heldUntil)), more: rows.length > page.limit };
  }

  /**
   * A new signing secret for the owner's subscription; the one it replaces signs beside it until
   * `previousUntil` (null: no longer), so a receiver switches on its own time
   * (docs/decisions/0360-webhook-secret-rotation.md). A secret replaced earlier is dropped.
   */
  async rotateSecret(accountId: string, subscriptionId: string, secret: string, previousUntil: Date | null, now: Date): Promise<void> {
    // Every right-hand side reads the row as it was, so the secret being replaced is what is kept.
    const updated = await this.knex
      .withSchema(AREA)
      .table('subscriptions')
      .where({ id: subscriptionId, account_id: accountId })
      .update({
        previous_secret: previousUntil ? this.knex.raw('??', ['secret']) : null,
        previous_secret_expires_at: previousUntil,
        secret,
        updated_at: now,
      });
    if (updated === 0) throw new NotFoundError('subscription', subscriptionId);
  }

  /**
   * Sends a dead letter again, from now, with a fresh 24 hours, and resumes its subscription
   * (`resume`): a paused one, and one whose URL failed the handshake when it last resumed, which
   * left as it is would keep the delivery pending with nothing ever to send it
   * (docs/decisions/0376-retrying-after-a-failed-handshake.md). Only a dead letter can be
   * retried: a pending delivery is being tried already and a delivered one was answered.
   */
  async retry(accountId: string, subscriptionId: string, deliveryId: string, now: Date): Promise<Delivery> {
    const { heldUntil } = await this.owned(accountId, subscriptionId);
    return this.knex.transaction(async (trx) => {
      const [row]: DeliveryRow[] = await trx
        .withSchema(AREA)
        .table('deliveries')
        .where({ id: deliveryId, subscription_id: subscriptionId, status: 'dead' })
        .update({ status: 'pending', next_attempt_at: now, first_attempt_at: null, dead_at: null, lease_until: null })
        .returning(DELIVERY_COLUMNS.split(', '));
      if (!row) {
        const exists = await trx
          .withSchema(AREA)
          .table('deliveries')
          .select('status')
          .where({ id: deliveryId, subscription_id: subscriptionId })
          .first();
        if (!exists) throw new NotFoundError('delivery', deliveryId);
        throw new ConflictError('delivery_not_dead', `Delivery ${deliveryId} is ${exists.status}; only a dead letter can be retried`);
      }
      await this.resume(trx, subscriptionId);
      return deliveryView(row, heldUntil);
    });
  }

  /**
   * The owner asks for the subscription's URL to be validated again
   * (docs/decisions/0483-validating-a-subscription-again.md): one that failed the handshake or is
   * paused resumes (`resume`), which is the way back for one with no dead letter to retry; one
   * still validating is left to the handshake it awaits. An active one is refused: its URL passed
   * the handshake and is delivered to.
   */
  async validate(accountId: string, subscriptionId: string): Promise<void> {
    await this.knex.transaction(async (trx) => {
      // Locked, so a handshake recorded meanwhile is waited for and what is decided is what it left.
      const row: { status: SubscriptionRecord['status'] } | undefined = await trx
        .withSchema(AREA)
        .table('subscriptions')
        .select('status')
        .where({ id: subscriptionId, account_id: accountId })
        .forUpdate()
        .first();
      if (!row) throw new NotFoundError('subscription', subscriptionId);
      if (row.status === 'active')
        throw new ConflictError('subscription_active', `Subscription ${subscriptionId} is already active; nothing to validate`);
      if (row.status !== 'validating') await this.resume(trx, subscriptionId);
    });
  }

  /**
   * A paused or `validation_failed` subscription resumes through validation: `validating` again,
   * its run of dead letters cleared, so the dispatcher repeats the CloudEvents handshake (HTTP 1.1
   * Web Hooks for Event Delivery §4) before any delivery is sent, since a URL that kept failing may
   * now answer for someone else (docs/decisions/0260-webhook-delivery.md, pausing). The account's
   * other subscriptions to the URL that a 410 Gone paused (`paused_by`, whatever their message
   * says) resume with it (docs/decisions/0457-410-gone-retires-the-url-for-the-account.md,
   * docs/decisions/0494-why-a-subscription-is-paused-is-a-fact-of-its-own.md).
   */
  private async resume(trx: Knex.Transaction, subscriptionId: string): Promise<void> {
    await trx
      .withSchema(AREA)
      .table('subscriptions')
      .where({ id: subscriptionId })
      .whereIn('status', ['paused', 'validation_failed'])
      .update({ status: 'validating', status_message: RESUMED_MESSAGE, paused_by: null, dead_in_a_row: 0, lease_until: null });
    await trx.raw(
      `update ${AREA}.subscriptions o set status = 'validating', status_message = :resumed, paused_by = null, dead_in_a_row = 0, lease_until = null
       from ${AREA}.subscriptions s
       where s.id = :id and o.account_id = s.account_id and o.receiver = s.receiver and o.status = 'paused' and o.paused_by = 'gone'`,
      { resumed: RESUMED_MESSAGE, id: subscriptionId },
    );
  }
}
