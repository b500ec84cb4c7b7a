import { z } from 'zod';
import { countParam, cursorParam, Timestamp, Uuid, UuidInput, UtcTimestampInput } from './common.js';
import { kindOf } from './issue-words.js';
import { text } from './text.js';

/**
 * A path-like identifier (spec 2.10 "namespace"): segments of letters, digits, `_`, `.` and `-`,
 * each starting with a letter or digit, joined by `/`, e.g. `agriculture/fields/created`.
 */
export const EVENT_NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;
export const Namespace = text()
  .max(200, { error: 'is at most 200 characters' })
  .regex(EVENT_NAMESPACE, { error: 'must be a path-like identifier such as agriculture/fields/created' });

const ResourceRef = z.object({ namespace: Namespace, id: Uuid });
/** A resource named in a request: its id in canonical lower case. */
const ResourceRefInput = z.object({ namespace: Namespace, id: UuidInput });

/** An event as stored and read back by id (spec 2.10). */
export const Event = z
  .object({
    id: Uuid,
    app: z.string(),
    origin: ResourceRef,
    namespace: z.string(),
    status: z.string(),
    message: z.string(),
    creationTime: Timestamp,
    occurrenceTime: Timestamp,
    expirationTime: Timestamp.nullable(),
    tagged: z.array(ResourceRef),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;

/** Feed entries omit `namespace` as spec 2.10 shows. */
export const FeedEntry = Event.omit({ namespace: true }).meta({ id: 'FeedEntry' });
export type FeedEntry = z.infer<typeof FeedEntry>;

export const FEED_LIMIT_DEFAULT = 10;
export const FEED_LIMIT_MAX = 100;
export const EVENT_MESSAGE_MAX = 1000;
export const EVENT_TAGGED_MAX = 50;

/** Feed query parameters (spec 4.10): keyset cursors given as event ids, never offsets. */
export const FeedQuery = z
  .object({
    after: cursorParam({
      name: 'after',
      names: 'the id of an event',
      description: 'an event’s id: the events older than it, the next page (newest first), as Link rel="next" names it',
    }).optional(),
    before: cursorParam({ name: 'before', names: 'the id of an event', description: 'an event’s id: the events newer than it' }).optional(),
    limit: countParam({
      max: FEED_LIMIT_MAX,
      description: `most events in the page, 1 to ${FEED_LIMIT_MAX} (default ${FEED_LIMIT_DEFAULT})`,
      examples: ['10'],
    }).default(FEED_LIMIT_DEFAULT),
  })
  .refine((q) => !(q.after && q.before), {
    error: 'after and before cannot be used in the same call',
    path: ['before'],
    // One fault per value (docs/decisions/0005-problem-details.md): a cursor refused as no id is not also told it has company.
    when: (payload) => !payload.issues.some((i) => i.path?.[0] === 'after' || i.path?.[0] === 'before'),
  });
export type FeedQuery = z.infer<typeof FeedQuery>;

/** A member the service sets: refused when sent, and `not: {}` in the OpenAPI document, which no value passes. */
const setByService = z
  .undefined({ error: 'is set by the service' })
  .meta({ not: {}, description: 'set by the service; must not be sent' })
  .optional();

const APP_WORDS = 'the calling application’s handle or id';

/**
 * Body of POST /events (spec 4.10). Required: app, namespace, message. origin defaults to the
 * application itself, occurrenceTime to the time of the request, tagged to none (docs/decisions/0025-event-creation.md). Unknown keys are refused so a misspelt optional field is not silently defaulted.
 */
export const EventInput = z
  .strictObject({
    app: text({
      // the member's type faults name what it holds; its length faults keep the shared words (issue-words.ts)
      error: (issue) =>
        issue.code !== 'invalid_type'
          ? undefined
          : issue.input === undefined
            ? `is missing: must be ${APP_WORDS}`
            : `must be ${APP_WORDS}, not ${kindOf(issue.input)}`,
    })
      .min(1, { error: `must not be empty: ${APP_WORDS}` })
      .max(63),
    origin: ResourceRefInput.optional(),
    namespace: Namespace,
    message: text()
      .min(1, { error: 'must not be empty' })
      .max(EVENT_MESSAGE_MAX, { error: `is at most ${EVENT_MESSAGE_MAX} characters` }),
    occurrenceTime: UtcTimestampInput.optional(),
    tagged: z
      .array(ResourceRefInput)
      .max(EVENT_TAGGED_MAX, { error: `holds at most ${EVENT_TAGGED_MAX} resources` })
      .default([]),
    id: setByService,
    status: setByService,
    creationTime: setByService,
    expirationTime: setByService,
  })
  .meta({ id: 'EventInput' });
export type EventInput = z.infer<typeof EventInput>;

/** `/apps/{app}`: an application's UUID, or its handle (accounts) or area name (platform apps). */
export const AppParams = z.object({
  app: z.union([UuidInput, z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/)], { error: 'must be an application UUID or handle' }),
});

export const ResourceParams = z.object({ id: UuidInput });
