import { Api, badRequest } from '@fieldcast/kit';
import { FeedEntry, FeedQuery } from '@fieldcast/schemas';
import { z } from 'zod';
import { toFeedEntry, UnknownCursor, type EventStore } from '../store.js';

/** Feeds (spec 4.10): occurrenceTime descending, keyset cursors by event id. */
export function feedRoutes(api: Api, store: EventStore): Api {
  return api.op({
    method: 'get',
    path: '/events',
    summary: 'The main feed: latest events the account may see',
    description: 'after=X continues past X (older events); before=X gives the events newer than X. Both at once is a 400.',
    tags: ['events'],
    query: FeedQuery,
    response: { status: 200, description: 'Events, newest first', schema: z.array(FeedEntry) },
    handle: async ({ account, query }) => {
      try {
        return (await store.feed(account.id, query)).map(toFeedEntry);
      } catch (err) {
        if (err instanceof UnknownCursor) throw badRequest('unknown_cursor', `No event ${err.message} to page from`, [{ path: query.after ? 'after' : 'before', message: 'unknown event id' }]);
        throw err;
      }
    },
  });
}
