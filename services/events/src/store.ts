import type { Knex } from 'knex';
import type { Event, FeedEntry } from '@fieldcast/schemas';
import type { NewEvent, ResourceRef } from './domain/translate.js';

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
  owner_account: string | null;
}

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

export interface FeedPage {
  after?: string;
  before?: string;
  limit: number;
}

export class UnknownCursor extends Error {}

/** The events schema; nothing else touches it. */
export class EventStore {
  constructor(private readonly knex: Knex) {}

  private get events() {
    return this.knex.withSchema(AREA).table('events');
  }

  /** Stores an event once: a second delivery of the same CloudEvent is a no-op. Returns whether it was new. */
  async insert(event: NewEvent): Promise<boolean> {
    const rows = await this.events
      .insert({
        id: event.id,
        source_event_id: event.sourceEventId,
        app: event.app,
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
      .returning('id');
    return rows.length > 0;
  }

  async deadLetter(entry: { topic: string; partition: number; offset: string; key: string | null; value: string; reason: string }): Promise<void> {
    await this.knex.withSchema(AREA).table('dead_letters').insert(entry).onConflict(['topic', 'partition', 'offset']).ignore();
  }

  /** An event the account may see (public or its own), or null. */
  async get(accountId: string, id: string): Promise<Event | null> {
    const row = await this.visible(this.events, accountId).where({ id }).first();
    return row ? toEvent(row) : null;
  }

  /**
   * A page of the main feed, newest first. Cursors are keyset bounds taken from the cursor
   * event's own stored values, so paging never skips or repeats an event while new ones arrive.
   */
  async feed(accountId: string, page: FeedPage): Promise<Event[]> {
    const cursorId = page.after ?? page.before;
    if (cursorId && !(await this.get(accountId, cursorId))) throw new UnknownCursor(cursorId);
    const cursor = (k: Knex) => k.withSchema(AREA).from('events').where({ id: cursorId }).select('occurrence_time', 'seq');
    let q = this.visible(this.events, accountId);
    if (page.after) q = q.whereRaw('(occurrence_time, seq) < (?)', [cursor(this.knex)]);
    if (page.before) q = q.whereRaw('(occurrence_time, seq) > (?)', [cursor(this.knex)]);
    const dir = page.before ? 'asc' : 'desc';
    const rows: EventRow[] = await q.orderBy([{ column: 'occurrence_time', order: dir }, { column: 'seq', order: dir }]).limit(page.limit);
    if (page.before) rows.reverse();
    return rows.map(toEvent);
  }

  private visible(q: Knex.QueryBuilder, accountId: string) {
    return q.where((w) => w.whereNull('owner_account').orWhere('owner_account', accountId));
  }
}
