import type { CloudEvent, IncomingMessage } from '@fieldcast/bus';
import type { Logger } from '@fieldcast/kit';
import { Event } from '@fieldcast/schemas';
import type { Consumer } from '@fieldcast/runtime';
import type { StoredEventResource } from '../domain/stored-events.js';
import type { DeliveryStore, StoredEvent } from '../webhook-store.js';
import type { WebhookDispatcher } from './dispatcher.js';

/** The stored events' topic (STORED_TOPIC), which the fan-out consumes. */
export const STORED_PATTERN = /^fieldcast-state\.events\.stored$/;
/** The consumer group that fans stored events out to subscriptions: replicas share its partitions. */
export const WEBHOOKS_GROUP = 'webhooks';

/**
 * The stored event a message announces, or null when it holds none. The Event is read through its
 * schema, which also writes its members back in the order the API writes them (spec 2.10): the
 * message went through the outbox's jsonb, which keeps no key order, and a subscriber's `data`
 * should read as `GET /events/{id}` does.
 */
function storedEventOf(value: string): StoredEvent | null {
  try {
    const ce = JSON.parse(value) as CloudEvent<StoredEventResource>;
    const resource = ce.data?.resource;
    const event = Event.safeParse(resource?.event);
    if (!event.success || typeof resource.appId !== 'string') return null;
    return { event: event.data, appId: resource.appId, owner: ce.data.account };
  } catch {
    return null;
  }
}

/**
 * Fans each stored event out to the subscriptions that may see it and want it, in the database
 * (a redelivered message adds nothing), then wakes the dispatcher. A database failure throws, so
 * the message comes again; the sends themselves are claimed from the database, so whichever
 * replica is alive sends them (docs/decisions/0260-webhook-delivery.md).
 */
export function webhookFanOutConsumer(
  store: DeliveryStore,
  dispatcher: WebhookDispatcher,
  deps: { logger: Logger; now: () => Date },
): Consumer {
  return {
    group: WEBHOOKS_GROUP,
    topics: STORED_PATTERN,
    async handle(message: IncomingMessage) {
      const stored = storedEventOf(message.value);
      if (!stored) {
        deps.logger.warn({ topic: message.topic, offset: message.offset }, 'skipped a stored-event message that is no event');
        return;
      }
      // Nothing added, nothing to send now: a subscription still validating is taken up by the next pass.
      if ((await store.fanOut(stored, deps.now())) > 0) dispatcher.kick();
    },
    stop: () => dispatcher.stop(),
  };
}
