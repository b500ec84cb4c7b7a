import { InProcessTransport } from '@fieldcast/bus';
import {
  migrateSchema,
  openDatabase,
  Outbox,
  outboxMigration,
  OwnedResourceStore,
  type Database,
  type OwnedResourceTable,
  type RecordCache,
} from '../src/index.js';

/** A tiny owned resource: a note with one line of text. */
interface Note {
  id: string;
  accountId: string;
  text: string;
}

const SCHEMA = 'ownedtest';
const ALICE = '0b9d3c4e-1f2a-4b5c-8d6e-7f8091a2b3c4';
const BOB = '1c0e4d5f-2a3b-4c6d-9e7f-8091a2b3c4d5';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const NOTES: OwnedResourceTable<Note> = {
  area: SCHEMA,
  table: 'notes',
  kind: 'note',
  topic: 'fieldcast.ownedtest.notes',
  columns: ['id', 'account_id', 'text'],
  fromRow: (row) => ({ id: row.id as string, accountId: row.account_id as string, text: row.text as string }),
  toRow: (note) => ({ id: note.id, account_id: note.accountId, text: note.text }),
  snapshot: (note) => ({ id: note.id, text: note.text }),
};

let db: Database;
let outbox: Outbox;
let clock = Date.parse('2026-01-01T00:00:00Z');
const now = () => new Date((clock += 1000));

beforeAll(async () => {
  db = await openDatabase({ dataDir: null });
  await migrateSchema(db.knex, SCHEMA, [
    outboxMigration(),
    {
      name: '001_notes',
      up: (k, s) =>
        k.schema.withSchema(s).createTable('notes', (t) => {
          t.uuid('id').primary();
          t.uuid('account_id').notNullable();
          t.text('text').notNullable();
          t.timestamp('created_at', { useTz: true }).notNullable();
          t.timestamp('updated_at', { useTz: true }).notNullable();
          t.index(['account_id', 'created_at', 'id']);
        }),
    },
  ]);
  outbox = new Outbox({
    db,
    schema: SCHEMA,
    transport: new InProcessTransport(),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
});
afterAll(() => db.close());
beforeEach(() => db.knex.raw(`truncate ${SCHEMA}.outbox, ${SCHEMA}.notes`));

const note = (n: number, accountId = ALICE, text = `note ${n}`): Note => ({ id: id(n), accountId, text });

async function events(): Promise<{ type: string; subject: string; data: { account: string; resource: unknown; related?: unknown } }[]> {
  const rows = await db.knex.withSchema(SCHEMA).table('outbox').orderBy('seq').select('event');
  return rows.map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event));
}

describe('OwnedResourceStore', () => {
  const store = () => new OwnedResourceStore(db.knex, outbox, now, NOTES);

  it('lists only the account’s records, oldest first', async () => {
    const s = store();
    await s.create(note(3));
    await s.create(note(1, BOB));
    await s.create(note(2));
    expect((await s.list(ALICE, { limit: 10 }))!.records.map((n) => n.id)).toEqual([id(3), id(2)]);
    expect(await s.list(BOB, { limit: 10 })).toEqual({ records: [note(1, BOB)], more: false });
  });

  it('lists a page at a time after a keyset cursor, ties of creation time in id order', async () => {
    // A clock that stands still: every record has the same created_at, so the id orders them.
    const still = new OwnedResourceStore(db.knex, outbox, () => new Date('2026-02-01T00:00:00Z'), NOTES);
    for (const n of [5, 3, 4, 1, 2]) await still.create(note(n));
    await still.create(note(6, BOB));
    const pages: string[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await still.list(ALICE, { limit: 2, ...(after ? { after } : {}) }))!;
      pages.push(page.records.map((r) => r.id));
      if (!page.more) break;
      after = page.records[page.records.length - 1]!.id;
    }
    expect(pages).toEqual([[id(1), id(2)], [id(3), id(4)], [id(5)]]);
    // The last record as the cursor: an empty page; no record of the account's: null.
    expect(await still.list(ALICE, { limit: 2, after: id(5) })).toEqual({ records: [], more: false });
    expect(await still.list(ALICE, { limit: 2, after: id(9) })).toBeNull();
    expect(await still.list(ALICE, { limit: 2, after: id(6) })).toBeNull();
  });

  it('ends a page before the record whose stored bytes would pass the page’s budget, and says more remain', async () => {
    // Each note's row is about 1 kB stored: a budget of 2.5 kB holds three rows' starts.
    const s = new OwnedResourceStore(db.knex, outbox, now, NOTES, null, 2_500);
    const text = (n: number) => `${n}`.repeat(1_000);
    for (const n of [1, 2, 3, 4, 5]) await s.create(note(n, ALICE, text(n)));
    const first = (await s.list(ALICE, { limit: 10 }))!;
    expect(first.records.map((r) => r.id)).toEqual([id(1), id(2), id(3)]);
    expect(first.more).toBe(true);
    const rest = (await s.list(ALICE, { limit: 10, after: id(3) }))!;
    expect(rest).toEqual({ records: [note(4, ALICE, text(4)), note(5, ALICE, text(5))], more: false });
    // a record past the budget on its own is still a page
    const tight = new OwnedResourceStore(db.knex, outbox, now, NOTES, null, 10);
    expect(await tight.list(ALICE, { limit: 10 })).toEqual({ records: [note(1, ALICE, text(1))], more: true });
    // the limit still counts when the budget holds more
    expect(await s.list(ALICE, { limit: 2 })).toEqual({ records: [note(1, ALICE, text(1)), note(2, ALICE, text(2))], more: true });
  });

  it('creates nothing, and publishes nothing, once the account owns the most records of the kind', async () => {
    const s = store();
    expect(await s.create(note(1), 2)).toEqual(note(1));
    expect(await s.create(note(2), 2)).toEqual(note(2));
    expect(await s.create(note(3), 2)).toBeNull();
    expect(await s.get(ALICE, id(3))).toBeNull();
    expect((await events()).map((e) => e.subject)).toEqual([id(1), id(2)]);
    // Other accounts count apart; concurrent creates cannot pass the cap together.
    const racing = await Promise.all([4, 5, 6, 7].map((n) => s.create(note(n, BOB), 2)));
    expect(racing.filter(Boolean)).toHaveLength(2);
    expect((await s.list(BOB, { limit: 10 }))!.records).toHaveLength(2);
  });

  it('reads, replaces and removes the owner’s record; another account’s reads as missing and stays as it was', async () => {
    const s = store();
    await s.create(note(1));
    expect(await s.get(ALICE, id(1))).toEqual(note(1));
    expect(await s.get(BOB, id(1))).toBeNull();
    expect(await s.get(ALICE, id(9))).toBeNull();
    expect(await s.replace(note(1, BOB, 'taken'))).toBeNull();
    expect(await s.remove(BOB, id(1))).toBeNull();
    expect(await s.get(ALICE, id(1))).toEqual(note(1));

    expect(await s.replace(note(1, ALICE, 'changed'))).toEqual(note(1, ALICE, 'changed'));
    expect(await s.replace(note(9))).toBeNull(); // no upsert
    expect(await s.remove(ALICE, id(1))).toEqual(note(1, ALICE, 'changed'));
    expect(await s.get(ALICE, id(1))).toBeNull();
    expect(await db.knex.withSchema(SCHEMA).table('notes').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  it('writes one event per change, with the account, the snapshot and the kind’s type; none for a refused change', async () => {
    const s = store();
    await s.create(note(1));
    await s.replace(note(1, BOB, 'taken'));
    await s.replace(note(1, ALICE, 'changed'));
    await s.remove(BOB, id(1));
    await s.remove(ALICE, id(1));
    expect(await events()).toEqual([
      expect.objectContaining({
        type: 'fieldcast.note.created',
        source: `/${SCHEMA}`,
        subject: id(1),
        data: { account: ALICE, resource: { id: id(1), text: 'note 1' } },
      }),
      expect.objectContaining({
        type: 'fieldcast.note.updated',
        subject: id(1),
        data: { account: ALICE, resource: { id: id(1), text: 'changed' } },
      }),
      expect.objectContaining({
        type: 'fieldcast.note.deleted',
        subject: id(1),
        data: { account: ALICE, resource: { id: id(1), text: 'changed' } },
      }),
    ]);
  });

  it('writes nothing, and publishes nothing, for a replace that leaves the record as it shows', async () => {
    const s = store();
    await s.create(note(1));
    const written = async () => (await db.knex.withSchema(SCHEMA).table('notes').select('updated_at').first())!.updated_at;
    const before = await written();
    expect(await s.replace(note(1))).toEqual(note(1));
    expect(await written()).toEqual(before);
    expect((await events()).map((e) => e.type)).toEqual(['fieldcast.note.created']);
  });

  it('adds related resources to the event when the table names them', async () => {
    const s = new OwnedResourceStore(db.knex, outbox, now, {
      ...NOTES,
      related: (n: Note) => [{ namespace: 'ownedtest/notes', id: n.id }],
    });
    await s.create(note(1));
    expect((await events())[0]!.data.related).toEqual([{ namespace: 'ownedtest/notes', id: id(1) }]);
  });

  it('writes the change and its event in one transaction: when the event fails, the change is not kept', async () => {
    const failing = new OwnedResourceStore(db.knex, outbox, now, {
      ...NOTES,
      snapshot: () => {
        throw new Error('no snapshot');
      },
    });
    await expect(failing.create(note(1))).rejects.toThrow('no snapshot');
    expect(await store().get(ALICE, id(1))).toBeNull();
    await store().create(note(1));
    await expect(failing.replace(note(1, ALICE, 'changed'))).rejects.toThrow('no snapshot');
    await expect(failing.remove(ALICE, id(1))).rejects.toThrow('no snapshot');
    expect(await store().get(ALICE, id(1))).toEqual(note(1));
    expect(await events()).toHaveLength(1);
  });

  it('reads through a record cache and drops a record from it before and after each write', async () => {
    const calls: string[] = [];
    const entries = new Map<string, Note>();
    const cache: RecordCache<Note> = {
      get: (key) => entries.get(key),
      readStarted: () => 0,
      fill: (_token, record) => void entries.set(record.id, record),
      invalidate: (key) => {
        calls.push(`invalidate ${key}`);
        entries.delete(key);
      },
    };
    const s = new OwnedResourceStore(db.knex, outbox, now, NOTES, cache);
    await s.create(note(1));
    expect(calls).toEqual([`invalidate ${id(1)}`, `invalidate ${id(1)}`]);
    expect(await s.get(ALICE, id(1))).toEqual(note(1));
    expect(entries.get(id(1))).toEqual(note(1));
    expect(await s.get(BOB, id(1))).toBeNull(); // a cached record is still the owner's only
    await s.replace(note(1, ALICE, 'changed'));
    expect(entries.has(id(1))).toBe(false);
    expect(await s.get(ALICE, id(1))).toEqual(note(1, ALICE, 'changed'));
  });
});
