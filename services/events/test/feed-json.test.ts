import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { FEED_ENTRY_SQL } from '../migrations/003_feed_entries.js';
import { EVENT_STATUS, type NewEvent } from '../src/domain/event.js';
import { eventsService } from '../src/definition.js';
import { EventStore, toFeedEntry, type FeedPage, type FeedScope } from '../src/store.js';

/**
 * A feed page is joined by the database from each event's stored entry (store.ts), and rows
 * stored before migration 003 had their entry written by SQL (FEED_ENTRY_SQL). Both must be byte
 * for byte what serialising the events read back by id gives, on PGlite here and on PostgreSQL
 * in the integration suite: key order, escaping, timestamps, nulls, tagged refs in the spec's order.
 */
const RESOURCE = '6f1c3b1e-8a3c-4a8e-9a55-1d8f0e2c7b10';
const t = useTestFleet([eventsService]);

const MESSAGES = [
  'plain {}',
  'quotes " and \\ backslash, slash / {}',
  'lines\nand\ttabs\r, control \u0001 \u001f and DEL \u007f {}',
  'unicode é ß 中文 😀 and separators \u2028 \u2029 {}',
  '</script> & <b> {}',
];

function event(i: number, owner: string | null, overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    id: crypto.randomUUID(),
    sourceEventId: null,
    app: owner ? 'alice-app' : 'platform',
    appId: owner ?? '2f1d7c55-0a8e-5b1e-9c33-6b2a1d0e4f7a',
    origin: { namespace: 'sensors/units', id: crypto.randomUUID() },
    namespace: 'sensors/reported',
    status: EVENT_STATUS,
    message: MESSAGES[i % MESSAGES.length]!,
    // pairs share a time, and one time has milliseconds, so the tie-break and .SSS both show
    creationTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 7 * i)),
    occurrenceTime: new Date(Date.UTC(2025, 11, 31, 23, Math.floor(i / 2), 0, i === 4 ? 999 : 0)),
    expirationTime: null,
    tagged: [{ namespace: 'sensors/units', id: RESOURCE }],
    ownerAccount: owner,
    ...overrides,
  };
}

function trickyEvents(alice: string, bob: string): NewEvent[] {
  return [
    ...[0, 1, 2, 3, 4].map((i) => event(i, alice)),
    ...[5, 6, 7].map((i) => event(i, null)),
    event(8, alice, { expirationTime: new Date(Date.UTC(2027, 5, 30, 12, 0, 0, 250)) }),
    event(9, alice, { tagged: [], origin: { namespace: 'sensors/units', id: RESOURCE } }),
    event(10, null, {
      tagged: [
        { namespace: 'a/b', id: RESOURCE.toUpperCase() },
        { namespace: 'c', id: crypto.randomUUID() },
        { namespace: 'a/b', id: RESOURCE },
      ],
    }),
    event(11, alice, { origin: { namespace: 'sensors/units', id: RESOURCE.toUpperCase() } }),
    event(12, bob), // another account's: in no page of alice's
  ];
}

describe('feed pages written by the database', () => {
  it('equal JSON.stringify of the same events read by id, in every feed and paging direction', async () => {
    const store = new EventStore(t.fleet.db, t.fleet.deps('events').outbox!);
    const alice = t.alice.id;
    const events = trickyEvents(alice, t.bob.id);
    for (const e of events) await store.insert(e);
    const appId = events[0]!.appId;
    const scopes: FeedScope[] = [{ kind: 'main' }, { kind: 'app', appId }, { kind: 'resource', resourceId: RESOURCE }];
    const cursor = events[4]!.id;
    const pages: FeedPage[] = [
      { limit: 100 },
      { limit: 3 },
      { limit: 4, after: cursor },
      { limit: 2, before: cursor },
      { limit: 100, after: cursor },
    ];
    let checked = 0;
    for (const scope of scopes) {
      for (const page of pages) {
        const { page: text } = await store.feed(scope, alice, page);
        const ids = (JSON.parse(text) as { id: string }[]).map((e) => e.id);
        const expected = await Promise.all(ids.map(async (id) => toFeedEntry((await store.get(alice, id))!)));
        expect(text).toBe(JSON.stringify(expected));
        checked += ids.length;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('are what the migration writes in SQL for rows stored before it', async () => {
    const store = new EventStore(t.fleet.db, t.fleet.deps('events').outbox!);
    const events = trickyEvents(t.alice.id, t.bob.id);
    for (const e of events) await store.insert(e);
    const rows: { entry: string; rebuilt: string }[] = (
      await t.fleet.db.knex.raw(`select e.entry, ${FEED_ENTRY_SQL} as rebuilt from events.events e where e.id = any(?)`, [
        events.map((e) => e.id),
      ])
    ).rows;
    expect(rows).toHaveLength(events.length);
    for (const row of rows) expect(row.rebuilt).toBe(row.entry);
  });

  it('is the response body as sent, with the vendor media type', async () => {
    const store = new EventStore(t.fleet.db, t.fleet.deps('events').outbox!);
    await store.insert(event(1, t.alice.id));
    const res = await request(t.fleet.app('events')).get('/events').set('Authorization', t.alice.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.fieldcast+json; version=1; charset=utf-8');
    expect(res.text).toBe((await store.feed({ kind: 'main' }, t.alice.id, { limit: 10 })).page);
  });
});
