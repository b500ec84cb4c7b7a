import type { Event } from '@fieldcast/schemas';

/**
 * Every event the events area stores, published through its outbox in the same transaction (key:
 * the resource it is about, so one resource's events stay in order). Outside the resource topic
 * pattern: the events area's own consumer never reads it back (docs/architecture.md §5). The
 * webhooks' fan-out consumes it (webhooks/fan-out.ts).
 */
export const STORED_TOPIC = 'fieldcast-state.events.stored';

/** What a stored-event message carries in `data.resource`. */
export interface StoredEventResource {
  event: Event;
  appId: string;
}
