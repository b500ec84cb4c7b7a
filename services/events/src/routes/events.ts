import { randomUUID } from 'node:crypto';
import { type Api, BodyFault, NotFoundError } from '@fieldcast/kit';
import { Event, EventInput, IdParams } from '@fieldcast/schemas';
import { appEvent } from '../domain/app-events.js';
import { eventOf, type EventStore } from '../store.js';

/** Creating and reading single events (spec 4.10). */
export function eventRoutes(api: Api, store: EventStore, now: () => Date): Api {
  const read = (path: string, summary: string) =>
    api.op({
      method: 'get',
      path,
      summary,
      tags: ['events'],
      params: IdParams,
      response: { status: 200, description: 'The event', schema: Event },
      errors: [404],
      handle: async ({ account, params }) => {
        const event = await store.get(account.id, params.id);
        if (!event) throw new NotFoundError('event', params.id);
        return event;
      },
    });
  api.op({
    method: 'post',
    path: '/events',
    summary: 'Emit an event as the calling application',
    description:
      'app is the caller’s handle or id. The message has one {} slot per tagged resource. The service sets id, status, creationTime and expirationTime.',
    tags: ['events'],
    body: EventInput,
    // Content faults the schema cannot see (slots, a future time) are the domain's 422s; a body the schema refuses is malformed.
    bodyFaults: BodyFault.malformed,
    response: { status: 200, description: 'The stored event', schema: Event },
    // It creates an event, so it takes an Idempotency-Key (docs/interface.md §1).
    creates: true,
    errors: [403, 422],
    handle: async ({ account, body }) => {
      const event = appEvent(body, account, randomUUID(), now());
      await store.insert(event);
      // Shown as a read shows it, without reading it back: under an Idempotency-Key the insert's
      // transaction is still open until this answer is kept in it.
      return eventOf(event);
    },
  });
  // The spec's heading says /event/{id}; its example request uses /events/{id}: serve both.
  read('/events/{id}', 'Read an event');
  read('/event/{id}', 'Read an event (the path of the spec’s heading)');
  return api;
}
