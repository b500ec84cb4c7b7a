import { type Api, JsonText, NotFoundError } from '@fieldcast/kit';
import { AppParams, FeedEntry, FeedQuery, ResourceParams } from '@fieldcast/schemas';
import { z } from 'zod';
import type { AppDirectory } from '../app-directory.js';
import type { EventStore, FeedScope } from '../store.js';

const PAGING =
  'Newest first (occurrenceTime, then arrival). after=X continues past X (older events, the next page); before=X gives the events newer than X. Both at once is a 400; an event the caller cannot see is an unknown_cursor.';
const response = { status: 200, description: 'Events, newest first', schema: z.array(FeedEntry) };

/** Feeds (spec 4.10): occurrenceTime descending, keyset cursors by event id. */
export function feedRoutes(api: Api, store: EventStore, apps: AppDirectory): Api {
  const page = async (scope: FeedScope, viewer: string, query: FeedQuery) => new JsonText(await store.feed(scope, viewer, query));
  return api
    .op({
      method: 'get',
      path: '/events',
      summary: 'The main feed: latest events the account may see',
      description: PAGING,
      tags: ['feeds'],
      query: FeedQuery,
      response,
      handle: ({ account, query }) => page({ kind: 'main' }, account.id, query),
    })
    .op({
      method: 'get',
      path: '/apps/{app}/events',
      summary: 'Latest events of one application',
      description: `app is the application's UUID or handle (a platform application's is its area name). ${PAGING}`,
      tags: ['feeds'],
      params: AppParams,
      query: FeedQuery,
      response,
      errors: [404],
      handle: async ({ account, params, query }) => {
        const appId = await apps.resolve(params.app);
        if (!appId) throw new NotFoundError('app', params.app, `Application ${params.app} does not exist`);
        return page({ kind: 'app', appId }, account.id, query);
      },
    })
    .op({
      method: 'get',
      path: '/resources/{id}/events',
      summary: 'Latest events of one resource: those it originated or is tagged in',
      description: PAGING,
      tags: ['feeds'],
      params: ResourceParams,
      query: FeedQuery,
      response,
      handle: ({ account, params, query }) => page({ kind: 'resource', resourceId: params.id }, account.id, query),
    });
}
