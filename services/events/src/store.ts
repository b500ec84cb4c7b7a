import type { Knex } from 'knex';
import { createTransaction, type Database, type OutboxWriter } from '@fieldcast/db';
import { InvalidRequestError } from '@fieldcast/kit';
import { PUBLIC_AUDIENCE } from '@fieldcast/ids';
import { FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX, type Event, type FeedEntry } from '@fieldcast/schemas';
import { resourceIdsOf, type NewEvent, type ResourceRef } from './domain/event.js';
import { STORED_TOPIC, type StoredEventResource } from './domain/stored-events.js';

export const AREA = 'events';

interface EventRow {
  id: string;
  app: string;
  origin_namespace: string;
  origin_id: string;
  namespace: string;
  status: string;
  message: string;
  creation_time: Date;
  occurrence_time: Date;
  expiration_time: Date | null;
  tagged: ResourceRef[] | string;
}

const COLUMNS = 'id, app, origin_namespace, origin_id, namespace, status, message, creation_time, occurrence_time, expiration_time, tagged';

function toEvent(row: EventRow): Event {
  return {
    id: row.id,
    app: row.app,
    origin: { namespace: row.origin_namespace, id: row.origin_id },
    namespace: row.namespace,
    status: row.status,
    message: row.message,
    creationTime: new Date(row.creation_time).toISOString(),
    occurrenceTime: new Date(row.occurrence_time).toISOString(),
    expirationTime: row.expiration_time ? new Date(row.expiration_time).toISOString() : null,
    // jsonb does not keep key order; write refs back in the spec's order (namespace, id).
    tagged: (typeof row.tagged === 'string' ? (JSON.parse(row.tagged) as ResourceRef[]) : row.tagged).map((r) => ({
      namespace: r.namespace,
      id: r.id,
    })),
  };
}

/** The Event (spec 2.10) a new event is shown as. */
export function eventOf(event: NewEvent): Event {
  return {
    // uuid columns print lower case, and GET by id shows what they print
    id: event.id.toLowerCase(),
    app: event.app,
    origin: { namespace: event.origin.namespace, id: event.origin.id.toLowerCase() },
    namespace: event.namespace,
    status: event.status,
    message: event.message,
    creationTime: event.creationTime.toISOString(),
    occurrenceTime: event.occurrenceTime.toISOString(),
    expirationTime: event.expirationTime ? event.expirationTime.toISOString() : null,
    tagged: event.tagged.map((r) => ({ namespace: r.namespace, id: r.id })),
  };
}

/** Feed entries omit `namespace` (spec 2.10); each event stores this, serialised, as its feed entry. */
export function toFeedEntry(event: Event): FeedEntry {
  const { namespace: _omitted, ...entry } = event;
  return entry;
}

/** Which feed (spec 4.10): the main feed, one application's, or one resource's. */
export type FeedScope = { kind: 'main' } | { kind: 'app'; appId: string } | { kind: 'resource'; resourceId: string };

export interface FeedPage {
  after?: string;
  before?: string;
  limit: number;
}

/** A cursor the viewer cannot page from: an unknown event, or one it may not see, which reads the same. */
function unknownCursor(page: FeedPage): InvalidRequestError {
  const [member, id] = page.after !== undefined ? ['after', page.after] : ['before', page.before];
  return new InvalidRequestError('unknown_cursor', `No event ${id} to page from`, [{ path: member, message: 'unknown event id' }]);
}

/** A feed statement, named for its text (scope kind, cursor direction, range limit), so each is prepared once per connection. */
export interface FeedStatement {
  name: string;
  text: string;
  values: unknown[];
}

/** What a feed statement returns, always one row. */
interface FeedPageRow {
  /** the page as a JSON array of feed entries, newest first */
  page: string;
  /** false when a cursor was given that the viewer cannot see (or that does not exist) */
  cursor_visible: boolean;
  /** the id of the page's oldest event, null for an empty page */
  oldest: string | null;
  /** whether an event lies beyond the page in the direction it was read (older; newer for a before page) */
  more: boolean;
}

/** A feed page as JSON text, and the cursor of the older page when older events remain (docs/decisions/0516-feeds-link-their-older-page.md). */
export interface FeedPageText {
  page: string;
  olderAfter: string | null;
}

/** What a page's rows carry: the stored entry and the feed order. */
const PAGE_COLUMNS = 'id, entry, occurrence_time, seq';

/**
 * How many rows each of a page's two ranges reads: the page limit and one more (to know whether
 * events remain past the page), rounded up to one of a few sizes, written into the text rather than bound. A named statement runs on a generic plan only
 * if the planner prices it near the custom ones, and a bound LIMIT is priced as 10% of the range
 * (hundreds of thousands of rows), so the main feed would be planned afresh on every request.
 * A few sizes keep the statements per connection few whatever limits clients send; the page's
 * own limit stays exact (and bound) above the two ranges.
 */
const RANGE_LIMITS = [FEED_LIMIT_DEFAULT, 25, 50, FEED_LIMIT_MAX].map((n) => n + 1);
function rangeLimit(limit: number): number {
  const size = RANGE_LIMITS.find((n) => n >= limit + 1);
  if (size === undefined || !Number.isInteger(limit) || limit < 1)
    throw new RangeError(`feed limit ${limit} is not 1 to ${FEED_LIMIT_MAX}`);
  return size;
}

/**
 * The statement of one feed page. Visibility (public or the viewer's own) is a union of two
 * ranges of one index, (scope key, audience, occurrence_time desc, seq desc), each cut at the
 * cursor by a row comparison and stopped by the limit, so the first page and a page a million
 * events deep cost the same (docs/decisions/0028-feed-order-and-cursors.md). The cursor must itself be visible to the viewer;
 * an invisible or unknown one yields no bound and so no rows, and `cursor_visible` false.
 *
 * The database also joins the page's JSON from each event's stored entry (written by `insert`):
 * Node forwards one text value instead of parsing ten rows of timestamps and jsonb and
 * serialising them again (docs/decisions/0029-feed-reads-at-scale.md). It reads one row past the
 * limit, left out of the page, to tell whether more remain, and names the page's oldest event,
 * the cursor of the next page. Parameters: $1 viewer,
 * $2 limit, then the scope key and the cursor when the shape has them; the text depends only on
 * the shape and the range limit, which name the statement.
 */
export function feedQuery(scope: FeedScope, viewer: string, page: FeedPage): FeedStatement {
  const cursorId = page.after ?? page.before;
  const newer = page.before !== undefined;
  const values: unknown[] = [viewer, page.limit];
  const param = (value: unknown) => `$${values.push(value)}`;
  const cmp = newer ? '>' : '<';
  const dir = newer ? 'asc' : 'desc';
  const order = `order by occurrence_time ${dir}, seq ${dir}`;
  const table = scope.kind === 'resource' ? `${AREA}.event_resources` : `${AREA}.events`;
  const key =
    scope.kind === 'resource'
      ? `resource_id = ${param(scope.resourceId)} and `
      : scope.kind === 'app'
        ? `app_id = ${param(scope.appId)} and `
        : '';
  const select = scope.kind === 'resource' ? 'event_id, occurrence_time, seq' : PAGE_COLUMNS;
  const anchor = cursorId
    ? `anchor as (select occurrence_time, seq from ${AREA}.events where id = ${param(cursorId)} and audience in ('${PUBLIC_AUDIENCE}', $1)), `
    : '';
  const bound = cursorId ? ` and (occurrence_time, seq) ${cmp} (select occurrence_time, seq from anchor)` : '';
  const batch = rangeLimit(page.limit);
  const branch = (audience: string) =>
    `(select ${select} from ${table} where ${key}audience = ${audience}${bound} ${order} limit ${batch})`;
  const union = `${branch(`'${PUBLIC_AUDIENCE}'`)} union all ${branch('$1')}`;
  // A resource page's ids as an array parameter: a lookup by primary key whatever the planner thinks of
  // the table sizes (a join could pick a hash join over all events on a small table).
  // n: the place in the direction read, so the row past the limit is the one left out
  const numbered = `${PAGE_COLUMNS}, row_number() over (${order}) as n`;
  const rows =
    scope.kind === 'resource'
      ? `select ${numbered} from ${AREA}.events where id = any(array(select event_id from (${union}) p)) ${order} limit $2 + 1`
      : `select ${numbered} from (${union}) p ${order} limit $2 + 1`;
  const text = `with ${anchor}page as (${rows})
select coalesce('[' || string_agg(e.entry, ',' order by e.occurrence_time desc, e.seq desc) filter (where e.n <= $2) || ']', '[]') as page,
  ${cursorId ? 'exists (select from anchor)' : 'true'} as cursor_visible,
  (array_agg(e.id order by e.occurrence_time, e.seq) filter (where e.n <= $2))[1] as oldest,
  count(*) > $2 as more
from page e`;
  return { name: `events_feed_${scope.kind}_${cursorId ? (newer ? 'before' : 'after') : 'first'}_${batch}`, text, values };
}

/** The events schema; nothing else touches it. */
export class EventStore {
  private readonly knex: Knex;

  constructor(
    private readonly db: Database,
    private readonly outbox: OutboxWriter,
  ) {
    this.knex = db.knex;
  }

  private get events() {
    return this.knex.withSchema(AREA).table('events');
  }

  /**
   * Stores an event and the resources it can be found through, and announces it on STORED_TOPIC
   * for the webhooks' fan-out, in one transaction. A second delivery of the same CloudEvent is a
   * no-op (the source_event_id constraint). Returns whether it was new.
   */
  async insert(event: NewEvent): Promise<boolean> {
    // For POST /events, a create's transaction: it keeps the answer for an Idempotency-Key too.
    return createTransaction(this.knex, async (trx) => {
      const rows: { seq: string }[] = await trx
        .withSchema(AREA)
        .table('events')
        .insert({
          id: event.id,
          source_event_id: event.sourceEventId,
          app: event.app,
          app_id: event.appId,
          origin_namespace: event.origin.namespace,
          origin_id: event.origin.id,
          namespace: event.namespace,
          status: event.status,
          message: event.message,
          creation_time: event.creationTime,
          occurrence_time: event.occurrenceTime,
          expiration_time: event.expirationTime,
          tagged: JSON.stringify(event.tagged),
          owner_account: event.ownerAccount,
          entry: JSON.stringify(toFeedEntry(eventOf(event))),
        })
        .onConflict('source_event_id')
        .ignore()
        .returning('seq');
      const seq = rows[0]?.seq;
      if (seq === undefined) return false;
      await trx
        .withSchema(AREA)
        .table('event_resources')
        .insert(
          resourceIdsOf(event).map((resourceId) => ({
            event_id: event.id,
            resource_id: resourceId,
            audience: event.ownerAccount ?? PUBLIC_AUDIENCE,
            occurrence_time: event.occurrenceTime,
            seq,
          })),
        );
      const resource: StoredEventResource = { event: eventOf(event), appId: event.appId };
      await this.outbox.add(trx, STORED_TOPIC, {
        area: AREA,
        resource: 'event',
        action: 'stored',
        id: event.id,
        subject: event.origin.id,
        time: event.creationTime,
        data: { account: event.ownerAccount, resource },
      });
      return true;
    });
  }

  async deadLetter(entry: {
    topic: string;
    partition: number;
    offset: string;
    key: string | null;
    value: string;
    reason: string;
  }): Promise<void> {
    await this.knex.withSchema(AREA).table('dead_letters').insert(entry).onConflict(['topic', 'partition', 'offset']).ignore();
  }

  /** An event the viewer may see (public or its own), or null. */
  async get(viewer: string, id: string): Promise<Event | null> {
    const row = await this.events.where({ id }).whereIn('audience', [PUBLIC_AUDIENCE, viewer]).first(COLUMNS.split(', '));
    return row ? toEvent(row) : null;
  }

  /** Whether any event was emitted by this application, whoever may see it. */
  async hasApp(appId: string): Promise<boolean> {
    return (await this.events.where({ app_id: appId }).first('id')) !== undefined;
  }

  /**
   * A page of a feed as JSON text: FeedEntry[], newest first. Cursors are keyset bounds taken from
   * the cursor event's own stored values, so paging never skips or repeats an event while new
   * ones arrive. A cursor the viewer cannot see is an InvalidRequestError (unknown_cursor).
   */
  async feed(scope: FeedScope, viewer: string, page: FeedPage): Promise<FeedPageText> {
    const [row] = await this.db.prepared<FeedPageRow>(feedQuery(scope, viewer, page));
    if (!row?.cursor_visible) throw unknownCursor(page);
    // older events remain past a first or after page that had more; always past a before page's, the cursor among them
    const olderRemain = page.before !== undefined || row.more;
    return { page: row.page, olderAfter: olderRemain ? row.oldest : null };
  }
}
