import { type Api, JsonText } from '@fieldcast/kit';
import { AppParams, FeedEntry, FeedQuery, ResourceParams } from '@fieldcast/schemas';
import { z } from 'zod';
import type { AppDirectory } from '../app-directory.js';
import type { EventStore, FeedScope } from '../store.js';

const PAGING =
  'Newest first (occurrenceTime, then arrival). after=X continues past X (older events, the next page); before=X gives the events newer than X. Both at once is a 400; an event the caller cannot see is an unknown_cursor. While older events remain, the Link header rel="next" names the next page: after=<the page\'s oldest event>, the same limit.';
const response = { status: 200, description: 'Events, newest first', schema: z.array(FeedEntry) };
/**
 * The feed of an application that does not exist: no event has this app id (the nil UUID, RFC
 * 9562 section 5.9), so it reads exactly like a known application with nothing the caller may
 * see, cursors included (docs/decisions/0041-unknown-application-feeds.md).
 */
const NO_APPLICATION = '00000000-0000-0000-0000-000000000000';

/** Feeds (spec 4.10): occurrenceTime descending, keyset cursors by event id. */
export function feedRoutes(api: Api, store: EventStore, apps: AppDirectory): Api {
  const page = async (
    scope: FeedScope,
    viewer: string,
    query: FeedQuery,
    req: { baseUrl: string; path: string },
    res: { setHeader(name: string, value: string): unknown },
  ) => {
    const { page: text, olderAfter } = await store.feed(scope, viewer, query);
    // as every paged list of the API names its next page (RFC 8288; docs/decisions/0516-feeds-link-their-older-page.md)
    if (olderAfter !== null) {
      const next = new URLSearchParams({ limit: String(query.limit), after: olderAfter });
      res.setHeader('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
    }
    return new JsonText(text);
  };
  return api
    .op({
      method: 'get',
      path: '/events',
      summary: 'The main feed: latest events the account may see',
      description: PAGING,
      tags: ['feeds'],
      query: FeedQuery,
      pages: true,
      response,
      handle: ({ account, query, req, res }) => page({ kind: 'main' }, account.id, query, req, res),
    })
    .op({
      method: 'get',
      path: '/apps/{app}/events',
      summary: 'Latest events of one application',
      description: `app is the application's UUID or handle (a platform application's is its area name). An unknown application has no events the caller may see, like one that has none. ${PAGING}`,
      tags: ['feeds'],
      params: AppParams,
      query: FeedQuery,
      pages: true,
      response,
      handle: async ({ account, params, query, req, res }) => {
        // A 404 here would tell any account which handles exist.
        const appId = (await apps.resolve(params.app)) ?? NO_APPLICATION;
        return page({ kind: 'app', appId }, account.id, query, req, res);
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
      pages: true,
      response,
      handle: ({ account, params, query, req, res }) => page({ kind: 'resource', resourceId: params.id }, account.id, query, req, res),
    });
}
