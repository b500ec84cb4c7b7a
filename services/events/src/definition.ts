import { Api } from '@fieldcast/kit';
import { defineService, type DepsOf } from '@fieldcast/runtime';
import { eventsMigration } from '../migrations/001_events.js';
import { feedsMigration } from '../migrations/002_feeds.js';
import { feedEntriesMigration } from '../migrations/003_feed_entries.js';
import { webhooksMigration } from '../migrations/004_webhooks.js';
import { deliveryRetentionMigration } from '../migrations/005_delivery_retention.js';
import { secretRotationMigration } from '../migrations/006_secret_rotation.js';
import { receiverHoldMigration } from '../migrations/007_receiver_hold.js';
import { allowedRateMigration } from '../migrations/008_allowed_rate.js';
import { receiversMigration } from '../migrations/009_receivers.js';
import { idempotencyKeysMigration } from '../migrations/010_idempotency_keys.js';
import { keptAnswerTagsMigration } from '../migrations/012_kept_answer_tags.js';
import { receiverTurnsMigration } from '../migrations/011_receiver_turns.js';
import { pausedByMigration } from '../migrations/013_paused_by.js';
import { rateAskLeasesMigration } from '../migrations/014_rate_ask_leases.js';
import { AppDirectory } from './app-directory.js';
import { resourceEventsConsumer } from './consumer.js';
import { DELIVERY_RETENTION_EVERY_MS, DELIVERY_TIMEOUT_MS } from './domain/webhook-delivery.js';
import { eventRoutes } from './routes/events.js';
import { feedRoutes } from './routes/feeds.js';
import { subscriptionRoutes } from './routes/subscriptions.js';
import { AREA, EventStore } from './store.js';
import { AddressGuard } from './webhooks/address-guard.js';
import { SWEEP_EVERY_MS, WebhookDispatcher } from './webhooks/dispatcher.js';
import { STORED_TOPIC } from './domain/stored-events.js';
import { webhookFanOutConsumer } from './webhooks/fan-out.js';
import { WebhookSender } from './webhooks/sender.js';
import { DeliveryStore, SUBSCRIPTIONS_TOPIC, SubscriptionStore } from './webhook-store.js';

const NEEDS = {
  database: {
    migrations: [
      eventsMigration,
      feedsMigration,
      feedEntriesMigration,
      webhooksMigration,
      deliveryRetentionMigration,
      secretRotationMigration,
      receiverHoldMigration,
      allowedRateMigration,
      receiversMigration,
      idempotencyKeysMigration,
      keptAnswerTagsMigration,
      receiverTurnsMigration,
      pausedByMigration,
      rateAskLeasesMigration,
    ],
  },
  outbox: { topics: [SUBSCRIPTIONS_TOPIC, STORED_TOPIC] },
  webhooks: true,
} as const;
type Deps = DepsOf<typeof NEEDS>;

const guardOf = (deps: Deps) => new AddressGuard(deps.webhooks.allowPrivate, deps.webhooks.allowPublic);

const dispatchers = new WeakMap<object, WebhookDispatcher>();

/**
 * The dispatcher of this process's webhook sends, one per started service (its deps), shared by
 * the fan-out consumer and the background task, so its bound on sends in flight is the process's.
 */
export function dispatcherOf(deps: Deps): WebhookDispatcher {
  let dispatcher = dispatchers.get(deps);
  if (!dispatcher) {
    dispatcher = new WebhookDispatcher({
      store: new DeliveryStore(deps.db.knex),
      sender: new WebhookSender(guardOf(deps), DELIVERY_TIMEOUT_MS),
      now: deps.now,
      logger: deps.logger,
      origin: deps.vendor,
    });
    dispatchers.set(deps, dispatcher);
  }
  return dispatcher;
}

/** The events service: what `fieldcast serve events` and the embedded fleet run. It needs no weather. */
export const eventsService = defineService({
  area: AREA,
  port: 8,
  title: 'Events',
  description: 'Application and resource events, their feeds (spec 4.10, 6) and webhook subscriptions.',
  needs: NEEDS,
  api(deps) {
    const store = new EventStore(deps.db, deps.outbox);
    const api = eventRoutes(new Api(), store, deps.now);
    feedRoutes(api, store, new AppDirectory(deps.identity, store));
    const subscriptions = new SubscriptionStore(deps.db.knex, deps.outbox, deps.now);
    return subscriptionRoutes(api, subscriptions, new DeliveryStore(deps.db.knex), guardOf(deps), deps.now);
  },
  consumers(deps) {
    return [
      resourceEventsConsumer(new EventStore(deps.db, deps.outbox), deps),
      webhookFanOutConsumer(new DeliveryStore(deps.db.knex), dispatcherOf(deps), deps),
    ];
  },
  background(deps) {
    const dispatcher = dispatcherOf(deps);
    const deliveries = new DeliveryStore(deps.db.knex);
    return [
      // Retries whose time has come, and claims a replica that died left behind (their leases end):
      // passes until nothing more is due, the sends going on after the task's pass ends.
      { name: 'webhook-deliveries', everyMs: SWEEP_EVERY_MS, run: async (nowMs) => void (await dispatcher.sweep(new Date(nowMs))) },
      // Deliveries that ended more than the retention ago (docs/decisions/0260-webhook-delivery.md, retention).
      {
        name: 'webhook-retention',
        everyMs: DELIVERY_RETENTION_EVERY_MS,
        run: async (nowMs) => {
          const deleted = await deliveries.prune(new Date(nowMs));
          if (deleted > 0) deps.logger.info({ deleted }, 'deleted webhook deliveries past their retention');
        },
      },
    ];
  },
});
