import { z } from 'zod';
import { Timestamp, Uuid } from './common.js';

const ResourceRef = z.object({ namespace: z.string(), id: Uuid });

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

/** Feed query parameters (spec 4.10): keyset cursors given as event ids, never offsets. */
export const FeedQuery = z
  .object({
    after: Uuid.optional(),
    before: Uuid.optional(),
    limit: z.coerce.number().int().min(1).max(FEED_LIMIT_MAX, { error: `limit is at most ${FEED_LIMIT_MAX}` }).default(FEED_LIMIT_DEFAULT),
  })
  .refine((q) => !(q.after && q.before), { error: 'after and before cannot be used in the same call', path: ['before'] });
export type FeedQuery = z.infer<typeof FeedQuery>;
