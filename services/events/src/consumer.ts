import { randomUUID } from 'node:crypto';
import { RESOURCE_TOPIC_PATTERN, type IncomingMessage } from '@fieldcast/bus';
import type { Logger } from '@fieldcast/kit';
import type { Consumer } from '@fieldcast/runtime';
import { eventFromCloudEvent, PoisonMessage } from './domain/translate.js';
import type { EventStore } from './store.js';

const CONSUMER_GROUP = 'events';

/**
 * Consumes every resource topic (docs/architecture.md §5). A message that cannot become an Event
 * goes to the dead-letter table with the reason and the consumer moves on; a database failure
 * throws, so the message is redelivered rather than lost.
 */
export function resourceEventsConsumer(store: EventStore, deps: { logger: Logger; now: () => Date }): Consumer {
  return {
    group: CONSUMER_GROUP,
    topics: RESOURCE_TOPIC_PATTERN,
    // the outcome is counted in /metrics (fieldcast_consumer_messages_total)
    async handle(message: IncomingMessage) {
      try {
        const event = eventFromCloudEvent(message.topic, message.value, randomUUID(), deps.now());
        return (await store.insert(event)) ? 'stored' : 'duplicate';
      } catch (err) {
        if (!(err instanceof PoisonMessage)) throw err;
        deps.logger.warn({ topic: message.topic, offset: message.offset, reason: err.message }, 'dead-lettered a message');
        await store.deadLetter({ ...message, reason: err.message });
        return 'dead_lettered';
      }
    },
  };
}
