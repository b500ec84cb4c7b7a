import { randomUUID } from 'node:crypto';
import { RESOURCE_TOPIC_PATTERN, type IncomingMessage } from '@fieldcast/bus';
import type { ServiceDeps } from '@fieldcast/kit';
import { eventFromCloudEvent, PoisonMessage } from './domain/translate.js';
import type { EventStore } from './store.js';

export const CONSUMER_GROUP = 'events';

/**
 * Consumes every resource topic (DESIGN.md section 5). A message that cannot become an Event goes
 * to the dead-letter table with the reason and the consumer moves on; a database failure throws,
 * so the message is redelivered rather than lost.
 */
export async function startConsumer(deps: ServiceDeps, store: EventStore): Promise<() => Promise<void>> {
  const handle = async (message: IncomingMessage) => {
    try {
      const event = eventFromCloudEvent(message.topic, message.value, randomUUID(), deps.now());
      await store.insert(event);
    } catch (err) {
      if (!(err instanceof PoisonMessage)) throw err;
      deps.logger.warn({ topic: message.topic, offset: message.offset, reason: err.message }, 'dead-lettered a message');
      await store.deadLetter({ ...message, reason: err.message });
    }
  };
  const subscription = await deps.transport.subscribe(CONSUMER_GROUP, RESOURCE_TOPIC_PATTERN, handle);
  return () => subscription.stop();
}
