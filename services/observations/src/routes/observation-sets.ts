import { randomUUID } from 'node:crypto';
import { answeredNotModified, type Api, BodyFault, InvalidRequestError, JsonText, NotFoundError } from '@fieldcast/kit';
import {
  IdParams,
  OBSERVATION_SETS_DEFAULT_LIMIT,
  OBSERVATION_SETS_MAX_LIMIT,
  OBSERVATION_VARIABLES,
  ObservationSet,
  ObservationSetsQuery,
  ObservationSetSummary,
  ObservationVariable,
} from '@fieldcast/schemas';
import { z } from 'zod';
import { newObservationSet } from '../domain/observation-sets.js';
import { periodOf } from '../domain/period.js';
import { ObservationSetBody } from './observation-set-body.js';
import { observationSetCsv } from './observation-set-csv.js';
import type { ObservationSetStore } from '../store.js';

/**
 * Every fault inside `sites` or `tags` is the content's (422, each with its path); a body that is
 * no JSON object, has no `sites` or has members besides these two has the wrong shape (400,
 * ObservationSetBody) (docs/decisions/0150-observation-sets-stored-as-sent.md).
 */
const contentFault = BodyFault.semantic('invalid_observation_set', 'The observation set is not valid');

const LIST_DESCRIPTION = `The caller's sets holding at least one observation whose time lies in the period [start, end], both included (a date stands for its whole UTC day; either bound may be left out), newest created first. At most limit sets (default ${OBSERVATION_SETS_DEFAULT_LIMIT}, most ${OBSERVATION_SETS_MAX_LIMIT}); while older ones remain, the Link header rel="next" names the next page, before=<the last set's id>.`;

/**
 * The entity tag of a set's JSON document (RFC 9110 section 8.8.3). Its id names it: a set is
 * stored once and never replaced (docs/interface.md §8). Weak, because the one document goes out
 * in several content codings (the stored gzip, its text, and whatever the compression middleware
 * makes of the text), which strong tags would have to tell apart
 * (docs/decisions/0377-observation-set-entity-tags.md).
 */
const documentEtag = (id: string) => `W/"${id}"`;

/** The variables list, serialised once: it is fixed by the schema package. */
const VARIABLES = new JsonText(JSON.stringify(OBSERVATION_VARIABLES));

/** Observation sets (spec 2.9, 4.8; docs/interface.md §8). */
export function observationSetRoutes(api: Api, store: ObservationSetStore): Api {
  const tags = ['observation sets'];
  return api
    .op({
      method: 'post',
      path: '/observation-sets',
      summary: 'Publish an observation set',
      description:
        'At most 1 MB. Sites with unique ids, each with observations at ISO 8601 times with a zone, each with known variables (GET /observation-sets/variables); at most 20 tags. The set is kept exactly as sent.',
      tags,
      body: ObservationSetBody,
      bodyFaults: { sites: contentFault, tags: contentFault },
      response: { status: 201, description: 'The stored summary', schema: ObservationSetSummary },
      errors: [422],
      handle: async ({ account, body, req }) => {
        return store.publish(newObservationSet(randomUUID(), account.id, body, req.body));
      },
    })
    .op({
      method: 'get',
      path: '/observation-sets',
      summary: 'List the caller’s observation sets with observations in a period',
      description: LIST_DESCRIPTION,
      tags,
      query: ObservationSetsQuery,
      pages: true,
      response: { status: 200, description: 'Stored summaries, newest first', schema: z.array(ObservationSetSummary) },
      handle: async ({ account, query, req, res }) => {
        const limit = query.limit ?? OBSERVATION_SETS_DEFAULT_LIMIT;
        const page = await store.list(account.id, {
          period: periodOf(query.start, query.end),
          limit,
          ...(query.before ? { before: query.before } : {}),
        });
        if (!page) {
          throw new InvalidRequestError('unknown_cursor', `before: no observation set ${query.before} of this account to continue from`, [
            { path: 'before', message: 'must be the id of one of the account’s observation sets' },
          ]);
        }
        if (page.more && page.lastId) {
          // RFC 8288: the next page, a reference relative to this request's own path.
          const next = new URLSearchParams({
            ...(query.start !== undefined ? { start: query.start } : {}),
            ...(query.end !== undefined ? { end: query.end } : {}),
            limit: String(limit),
            before: page.lastId,
          });
          res.setHeader('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
        }
        return new JsonText(`[${page.page}]`);
      },
    })
    .op({
      method: 'get',
      path: '/observation-sets/variables',
      summary: 'The variable names and units an observation may carry',
      tags,
      response: { status: 200, description: 'Known name and unit pairs', schema: z.array(ObservationVariable) },
      handle: () => VARIABLES,
    })
    .op({
      method: 'get',
      path: '/observation-sets/{id}',
      summary: 'Read back an observation set exactly as it was submitted',
      description:
        'The set as sent, gzipped to a client that accepts it. A set never changes: the JSON carries a weak ETag of the set, may be kept by the caller (Cache-Control: private, no-cache) and is answered 304 to an If-None-Match naming it. With Accept: text/csv, one row per site, time and variable (no ETag).',
      tags,
      params: IdParams,
      response: { status: 200, description: 'The submitted shape (sites, tags), as sent', schema: ObservationSet },
      errors: [404],
      // its tag is weak: only If-Match: * passes (docs/decisions/0504-reads-honour-if-match.md)
      conditional: { tagged: true, ifMatch: true, ifNoneMatch: true },
      csv: observationSetCsv,
      handle: async ({ account, params, req, res }) => {
        const document = await store.document(account.id, params.id);
        if (document === null) throw new NotFoundError('observation_set', params.id);
        // CSV is written from the set's rows by the kit; JSON goes out as the bytes stored.
        if (res.locals.csv === true) return new JsonText(await document.text());
        // The stored gzip goes out as it is to a client that accepts it (RFC 9110 section 8.4);
        // the compression middleware leaves an encoded response alone.
        res.vary('Accept-Encoding');
        // The stored document never changes: the caller may keep it and revalidate it
        // (RFC 9111 section 5.2.2.4), every use still authenticated
        // (docs/decisions/0377-observation-set-entity-tags.md).
        const etag = documentEtag(params.id);
        res.setHeader('ETag', etag);
        res.setHeader('Cache-Control', 'private, no-cache');
        if (answeredNotModified(req, res, etag)) return;
        const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
        const bytes = gzip ? document.gzip : await document.text();
        if (gzip) res.setHeader('Content-Encoding', 'gzip');
        res.setHeader('Content-Length', bytes.byteLength);
        res.status(200).end(bytes);
      },
    });
}
