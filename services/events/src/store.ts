import type { Knex } from 'knex';
import type { Event, FeedEntry } from '@fieldcast/schemas';
import { PUBLIC_AUDIENCE } from '../migrations/002_feeds.js';
import { resourceIdsOf, type NewEvent, type ResourceRef } from './domain/event.js';

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
    tagged: (typeof row.tagged === 'string' ? (JSON.parse(row.tagged) as ResourceRef[]) : row.tagged).map((r) => ({ namespace: r.namespace, id: r.id })),
  };
}

/** Feed entries omit `namespace` (spec 2.10). */
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

export class UnknownCursor extends Error {}

/**
 * The SQL of one feed page. Visibility (public or the viewer's own) is a union of two ranges of
 * one index, (scope key, audience, occurrence_time desc, seq desc), each cut at the cursor
 * by a row comparison and stopped by the limit, so the first page and a page a million events
 * deep cost the same (issue 3, "Scale"). The cursor must itself be visible to the viewer; an
 * invisible or unknown one yields no bound and so no rows, which `feed` then reports.
 */
export function feedQuery(scope: FeedScope, viewer: string, page: FeedPage): { sql: string; bindings: unknown[] } {
  const cursorId = page.after ?? page.before;
  const newer = page.before !== undefined;
  const cmp = newer ? '>' : '<';
  const dir = newer ? 'asc' : 'desc';
  const table = scope.kind === 'resource' ? `${AREA}.event_resources` : `${AREA}.events`;
  const key = scope.kind === 'resource' ? 'resource_id = ? and ' : scope.kind === 'app' ? 'app_id = ? and ' : '';
  const keyValue = scope.kind === 'resource' ? [scope.resourceId] : scope.kind === 'app' ? [scope.appId] : [];
  const select = scope.kind === 'resource' ? 'event_id, occurrence_time, seq' : `${COLUMNS}, seq`;
  const bound = cursorId ? ` and (occurrence_time, seq) ${cmp} (select occurrence_time, seq from anchor)` : '';
  const order = `order by occurrence_time ${dir}, seq ${dir}`;
  const branch = (owner: string) => `(select ${select} from ${table} where ${key}${owner}${bound} ${order} limit ?)`;
  const bindings: unknown[] = [];
  let sql = '';
  if (cursorId) {
    sql += `with anchor as (select occurrence_time, seq from ${AREA}.events where id = ? and audience in (?, ?)) `;
    bindings.push(cursorId, PUBLIC_AUDIENCE, viewer);
  }
  const union = `${branch('audience = ?')} union all ${branch('audience = ?')}`;
  bindings.push(...keyValue, PUBLIC_AUDIENCE, page.limit, ...keyValue, viewer, page.limit);
  if (scope.kind === 'resource') {
    // The page's ids as an array parameter: a lookup by primary key whatever the planner thinks of
    // the table sizes (a join could pick a hash join over all events on a small table).
    sql += `select ${COLUMNS} from ${AREA}.events where id = any(array(select event_id from (${union}) p)) ${order} limit ?`;
  } else {
    sql += `select ${COLUMNS} from (${union}) p order by occurrence_time ${dir}, seq ${dir} limit ?`;
  }
  bindings.push(page.limit);
  return { sql, bindings };
}

/** The events schema; nothing else touches it. */
export class EventStore {
  constructor(private readonly knex: Knex) {}

  private get events() {
    return this.knex.withSchema(AREA).table('events');
  }

  /**
   * Stores an event and the resources it can be found through, in one transaction. A second
   * delivery of the same CloudEvent is a no-op (the source_event_id constraint). Returns whether
   * it was new.
   */
  async insert(event: NewEvent): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
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
      return true;
    });
  }

  async deadLetter(entry: { topic: string; partition: number; offset: string; key: string | null; value: string; reason: string }): Promise<void> {
    await this.knex.withSchema(AREA).table('dead_letters').insert(entry).onConflict(['topic', 'partition', 'offset']).ignore();
  }

  /** An event the viewer may see (public or its own), or null. */
  async get(viewer: string, id: string): Promise<Event | null> {
    const row = await this.events
      .where({ id })
      .whereIn('audience', [PUBLIC_AUDIENCE, viewer])
      .first(COLUMNS.split(', '));
    return row ? toEvent(row) : null;
  }

  /** Whether any event was emitted by this application, whoever may see it. */
  async hasApp(appId: string): Promise<boolean> {
    return (await this.events.where({ app_id: appId }).first('id')) !== undefined;
  }

  /**
   * A page of a feed, newest first. Cursors are keyset bounds taken from the cursor event's own
   * stored values, so paging never skips or repeats an event while new ones arrive.
   */
  async feed(scope: FeedScope, viewer: string, page: FeedPage): Promise<Event[]> {
    const { sql, bindings } = feedQuery(scope, viewer, page);
    const rows: EventRow[] = (await this.knex.raw(sql, bindings as Knex.RawBinding[])).rows;
    // An empty page after a cursor is either the end of the feed or a cursor the viewer cannot use.
    const cursorId = page.after ?? page.before;
    if (rows.length === 0 && cursorId && !(await this.get(viewer, cursorId))) throw new UnknownCursor(cursorId);
    if (page.before) rows.reverse();
    return rows.map(toEvent);
  }
}
