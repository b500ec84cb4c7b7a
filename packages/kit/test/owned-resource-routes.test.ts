import request from 'supertest';
import { z } from 'zod';
import {
  Api,
  BodyFault,
  createServiceApp,
  ownedResourceRoutes,
  type Account,
  type BodyFaults,
  type Identity,
  type Limits,
  type OwnedRecords,
} from '../src/index.js';
import { testDeps } from './deps.js';

/** A tiny owned resource: a note with a line of text and a colour. */
interface Note {
  id: string;
  accountId: string;
  text: string;
  colour: string;
}
const NoteInput = z.object({ text: z.string().max(20), colour: z.enum(['red', 'blue']) });
const NoteView = z.object({ id: z.string(), text: z.string(), colour: z.string() }).meta({ id: 'Note' });

/** The store's contract, in memory: each account its own records, oldest first, null for another's. */
class MemoryNotes implements OwnedRecords<Note> {
  readonly records: Note[] = [];
  async list(accountId: string, page: { limit: number; after?: string }) {
    const mine = this.records.filter((n) => n.accountId === accountId);
    const start = page.after === undefined ? 0 : mine.findIndex((n) => n.id === page.after) + 1;
    if (start === 0 && page.after !== undefined) return null;
    return { records: mine.slice(start, start + page.limit), more: mine.length > start + page.limit };
  }
  async get(accountId: string, id: string) {
    return this.records.find((n) => n.id === id && n.accountId === accountId) ?? null;
  }
  async create(note: Note, maxPerAccount: number) {
    if (this.records.filter((n) => n.accountId === note.accountId).length >= maxPerAccount) return null;
    this.records.push(note);
    return note;
  }
  async replace(note: Note) {
    const i = this.records.findIndex((n) => n.id === note.id && n.accountId === note.accountId);
    if (i < 0) return null;
    this.records[i] = note;
    return note;
  }
  async remove(accountId: string, id: string) {
    const i = this.records.findIndex((n) => n.id === id && n.accountId === accountId);
    return i < 0 ? null : this.records.splice(i, 1)[0]!;
  }
}

const accounts: Record<string, Account> = {
  alice: { id: '0b9d3c4e-1f2a-4b5c-8d6e-7f8091a2b3c4', name: 'Alice', handle: 'alice' },
  bob: { id: '1c0e4d5f-2a3b-4c6d-9e7f-8091a2b3c4d5', name: 'Bob', handle: 'bob' },
};
const identity: Identity = {
  cachedAccount: () => undefined,
  authenticate: async (id, key) => (key === 'key' ? (accounts[id] ?? null) : null),
  findAccount: async () => null,
};

function notesApp(bodyFaults: BodyFaults<typeof NoteInput> = BodyFault.malformed, limits: Partial<Limits> = {}) {
  const store = new MemoryNotes();
  const app = createServiceApp(
    {
      area: 'notes',
      title: 'Notes',
      description: 'an owned resource for testing the kit',
      needs: {},
      api: () =>
        ownedResourceRoutes(new Api(), store, {
          kind: 'note',
          path: '/notes',
          tag: 'notes',
          noun: { one: 'note', many: 'notes' },
          input: NoteInput,
          bodyFaults,
          view: NoteView,
          build: (id, accountId, input) => ({ id, accountId, ...input }),
          present: (note) => ({ id: note.id, text: note.text, colour: note.colour }),
        }),
    },
    testDeps(identity, { bodyLimit: '1kb', limits }),
  );
  return { app, store };
}

const as = (who: string) => ({ Authorization: `Basic ${Buffer.from(`${who}:key`).toString('base64')}` });

describe('owned-resource routes', () => {
  it('create 201, then read, list (oldest first), replace and delete 200, each for the owner', async () => {
    const { app } = notesApp();
    const first = await request(app).post('/notes').set(as('alice')).send({ text: 'one', colour: 'red' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), text: 'one', colour: 'red' });
    expect(first.headers.location).toBe(`/notes/${first.body.id}`);
    const second = (await request(app).post('/notes').set(as('alice')).send({ text: 'two', colour: 'blue' })).body;
    expect((await request(app).get(`/notes/${first.body.id}`).set(as('alice'))).body).toEqual(first.body);
    expect((await request(app).get('/notes').set(as('alice'))).body).toEqual([first.body, second]);
    const put = await request(app).put(`/notes/${first.body.id}`).set(as('alice')).send({ text: 'uno', colour: 'blue' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ id: first.body.id, text: 'uno', colour: 'blue' });
    const del = await request(app).delete(`/notes/${first.body.id}`).set(as('alice'));
    expect(del.status).toBe(200);
    expect(del.body).toEqual(put.body);
    expect((await request(app).get('/notes').set(as('alice'))).body).toEqual([second]);
  });

  it('another account’s note is 404 exactly like a missing one, for read, replace and delete, and is left as it was', async () => {
    const { app, store } = notesApp();
    const mine = (await request(app).post('/notes').set(as('alice')).send({ text: 'mine', colour: 'red' })).body;
    const missing = '00000000-0000-4000-8000-000000000000';
    const answers = async (id: string) => [
      await request(app).get(`/notes/${id}`).set(as('bob')),
      await request(app).put(`/notes/${id}`).set(as('bob')).send({ text: 'taken', colour: 'blue' }),
      await request(app).delete(`/notes/${id}`).set(as('bob')),
    ];
    const strip = (body: Record<string, unknown>, id: string) => JSON.parse(JSON.stringify(body).replaceAll(id, '<id>'));
    const theirs = await answers(mine.id);
    const nothing = await answers(missing);
    for (const [i, res] of theirs.entries()) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ id: 'note_does_not_exist', message: `Note ${mine.id} does not exist`, status: 404 });
      expect(strip(res.body, mine.id)).toEqual(strip(nothing[i]!.body, missing));
    }
    expect((await request(app).get('/notes').set(as('bob'))).body).toEqual([]);
    expect(store.records).toEqual([{ id: mine.id, accountId: accounts.alice!.id, text: 'mine', colour: 'red' }]);
  });

  it('a body fault is what the operation declares: one answer for the whole body', async () => {
    const { app } = notesApp();
    const res = await request(app).post('/notes').set(as('alice')).send({ text: 'x', colour: 'green' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 'invalid_body', errors: [{ path: 'colour' }] });
  });

  it.each([
    ['null', 'null'],
    ['5', 'a number'],
    ['"note"', 'a string'],
    ['[]', 'an array'],
    ['true', 'a boolean'],
  ])('a body of JSON %s is told it must be a JSON object, not %s', async (json, what) => {
    const { app } = notesApp();
    const res = await request(app).post('/notes').set(as('alice')).set('Content-Type', 'application/json').send(json);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 'invalid_body', errors: [{ path: '', message: `the body must be a JSON object, not ${what}` }] });
    expect(res.body.errors).toHaveLength(1);
  });

  it('a body fault is what the operation declares: per member, a 422 member wins over a 400 one', async () => {
    const colour = BodyFault.semantic('invalid_colour', 'The colour is not one of ours');
    const { app, store } = notesApp({ text: BodyFault.malformed, colour });
    const wrongColour = await request(app)
      .post('/notes')
      .set(as('alice'))
      .send({ text: 'x'.repeat(30), colour: 'green' });
    expect(wrongColour.status).toBe(422);
    expect(wrongColour.body).toMatchObject({
      id: 'invalid_colour',
      message: 'The colour is not one of ours',
      type: 'urn:fieldcast:problem:invalid_colour',
    });
    expect(wrongColour.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['colour', 'text']);
    const longText = await request(app)
      .post('/notes')
      .set(as('alice'))
      .send({ text: 'x'.repeat(30), colour: 'red' });
    expect(longText.status).toBe(400);
    expect(longText.body.id).toBe('invalid_body');
    const notAnObject = await request(app).post('/notes').set(as('alice')).send([1]);
    expect(notAnObject.status).toBe(400);
    expect(store.records).toEqual([]);
  });

  it('documents 404 on the item operations, 422 on create (the cap) and on replace only where a body fault can be one', async () => {
    const { app } = notesApp({ text: BodyFault.malformed, colour: BodyFault.semantic('invalid_colour', 'no') });
    const doc = (await request(app).get('/openapi.json')).body;
    expect(Object.keys(doc.paths['/notes/{id}'].get.responses)).toContain('404');
    expect(Object.keys(doc.paths['/notes'].post.responses)).toContain('422');
    const plain = (await request(notesApp().app).get('/openapi.json')).body;
    expect(Object.keys(plain.paths['/notes'].post.responses)).toContain('422');
    expect(Object.keys(plain.paths['/notes/{id}'].put.responses)).not.toContain('422');
    expect(Object.keys(plain.paths['/notes/{id}'].put.responses)).toEqual(expect.arrayContaining(['400', '404']));
  });
});

describe('owned-resource lists are bounded (RFC 8288 Link rel="next")', () => {
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  /** A notes app whose store already holds `n` of alice's notes and one of bob's. */
  function filled(n: number, limits: Partial<Limits> = {}) {
    const made = notesApp(BodyFault.malformed, limits);
    for (let i = 1; i <= n; i++) made.store.records.push({ id: uuid(i), accountId: accounts.alice!.id, text: `n${i}`, colour: 'red' });
    made.store.records.push({ id: uuid(9_999), accountId: accounts.bob!.id, text: 'bob', colour: 'blue' });
    return made;
  }

  it('answers at most 1,000 by default, with a Link to the rest; none when nothing remains', async () => {
    const { app } = filled(1_001);
    const first = await request(app).get('/notes').set(as('alice'));
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1_000);
    expect(first.body[999].id).toBe(uuid(1_000));
    expect(first.headers.link).toBe(`</notes?limit=1000&after=${uuid(1_000)}>; rel="next"`);
    const rest = await request(app)
      .get(`/notes?limit=1000&after=${uuid(1_000)}`)
      .set(as('alice'));
    expect(rest.body.map((n: { id: string }) => n.id)).toEqual([uuid(1_001)]);
    expect(rest.headers.link).toBeUndefined();
    const exactly = await request(filled(1_000).app).get('/notes').set(as('alice'));
    expect(exactly.body).toHaveLength(1_000);
    expect(exactly.headers.link).toBeUndefined();
  });

  it('walks the list page by page following the Link header, in creation order, the body the plain array', async () => {
    const { app } = filled(5);
    const seen: string[] = [];
    let next: string | undefined = '/notes?limit=2';
    let pages = 0;
    while (next) {
      const res: request.Response = await request(app).get(next).set(as('alice'));
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      seen.push(...res.body.map((n: { id: string }) => n.id));
      next = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([1, 2, 3, 4, 5].map(uuid));
    // The cursor's id in upper case names the same note.
    expect(
      (
        await request(app)
          .get(`/notes?limit=1&after=${uuid(4).toUpperCase()}`)
          .set(as('alice'))
      ).body[0].id,
    ).toBe(uuid(5));
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=', 'limit'],
    ['limit=1&limit=2', 'limit'],
    ['after=not-a-uuid', 'after'],
    ['after=', 'after'],
  ])('a bad page (%s) is 400 invalid_parameter naming the parameter', async (query, name) => {
    const res = await request(filled(2).app).get(`/notes?${query}`).set(as('alice'));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ id: 'invalid_parameter', errors: [expect.objectContaining({ path: name })] });
  });

  it('a limit given twice is told so, not that it is of the wrong type', async () => {
    const res = await request(filled(2).app).get('/notes?limit=1&limit=2').set(as('alice'));
    expect(res.body.errors).toEqual([{ path: 'limit', message: 'limit must be given once, as a whole number from 1 to 1000' }]);
  });

  it('an after given twice is told so, not that it is no UUID: both values are', async () => {
    const res = await request(filled(2).app)
      .get(`/notes?after=${uuid(1)}&after=${uuid(2)}`)
      .set(as('alice'));
    expect([res.status, res.body.errors]).toEqual([
      400,
      [{ path: 'after', message: 'after must be given once, as the id of an item of the list (a UUID)' }],
    ]);
  });

  it('a cursor that is no note of the account (unknown, or another account’s) is 400 unknown_cursor', async () => {
    const { app } = filled(2);
    for (const after of [uuid(77), uuid(9_999)]) {
      const res = await request(app).get(`/notes?after=${after}`).set(as('alice'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id: 'unknown_cursor', errors: [{ path: 'after' }] });
    }
    // The last note is a cursor with nothing after it: an empty page, not an error.
    const end = await request(app)
      .get(`/notes?after=${uuid(2)}`)
      .set(as('alice'));
    expect(end.status).toBe(200);
    expect(end.body).toEqual([]);
  });

  it('an account may own at most the configured number of a kind: one more is 422 too_many_resources and stores nothing', async () => {
    const { app, store } = filled(3, { ownedPerKind: 3 });
    const res = await request(app).post('/notes').set(as('alice')).send({ text: 'four', colour: 'red' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ id: 'too_many_resources', message: expect.stringContaining('3 notes') });
    expect(store.records).toHaveLength(4);
    // Another account is under its own cap; a deletion makes room.
    expect((await request(app).post('/notes').set(as('bob')).send({ text: 'two', colour: 'red' })).status).toBe(201);
    expect(
      (
        await request(app)
          .delete(`/notes/${uuid(1)}`)
          .set(as('alice'))
      ).status,
    ).toBe(200);
    expect((await request(app).post('/notes').set(as('alice')).send({ text: 'four', colour: 'red' })).status).toBe(201);
  });

  it('the cap is 10,000 by default', async () => {
    const { app, store } = filled(10_000);
    expect((await request(app).post('/notes').set(as('alice')).send({ text: 'one more', colour: 'red' })).status).toBe(422);
    expect(store.records).toHaveLength(10_001);
  });
});

describe('operations with a body', () => {
  it('must state their body faults', () => {
    expect(() =>
      // @ts-expect-error: the compiler asks for bodyFaults too
      new Api().op({
        method: 'post',
        path: '/things',
        summary: 'make a thing',
        body: z.object({ a: z.string() }),
        response: { status: 201, description: 'made' },
        handle: () => ({}),
      }),
    ).toThrow(/POST \/things takes a body, so it must state its bodyFaults/);
  });
});
