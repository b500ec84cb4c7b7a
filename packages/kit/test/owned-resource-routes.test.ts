import request from 'supertest';
import { z } from 'zod';
import { Api, BodyFault, createLogger, createServiceApp, ownedResourceRoutes, type Account, type BodyFaults, type Identity, type OwnedRecords } from '../src/index.js';

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
  async list(accountId: string) {
    return this.records.filter((n) => n.accountId === accountId);
  }
  async get(accountId: string, id: string) {
    return this.records.find((n) => n.id === id && n.accountId === accountId) ?? null;
  }
  async create(note: Note) {
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

function notesApp(bodyFaults: BodyFaults<typeof NoteInput> = BodyFault.malformed) {
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
    { identity, logger: createLogger({ level: 'silent' }), vendor: 'fieldcast', bodyLimit: '1kb', now: () => new Date(), ready: async () => ({}) },
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

  it('a body fault is what the operation declares: per member, a 422 member wins over a 400 one', async () => {
    const colour = BodyFault.semantic('invalid_colour', 'The colour is not one of ours');
    const { app, store } = notesApp({ text: BodyFault.malformed, colour });
    const wrongColour = await request(app).post('/notes').set(as('alice')).send({ text: 'x'.repeat(30), colour: 'green' });
    expect(wrongColour.status).toBe(422);
    expect(wrongColour.body).toMatchObject({ id: 'invalid_colour', message: 'The colour is not one of ours', type: 'urn:fieldcast:problem:invalid_colour' });
    expect(wrongColour.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['colour', 'text']);
    const longText = await request(app).post('/notes').set(as('alice')).send({ text: 'x'.repeat(30), colour: 'red' });
    expect(longText.status).toBe(400);
    expect(longText.body.id).toBe('invalid_body');
    const notAnObject = await request(app).post('/notes').set(as('alice')).send([1]);
    expect(notAnObject.status).toBe(400);
    expect(store.records).toEqual([]);
  });

  it('documents 404 on the item operations and 422 only where a body fault can be one', async () => {
    const { app } = notesApp({ text: BodyFault.malformed, colour: BodyFault.semantic('invalid_colour', 'no') });
    const doc = (await request(app).get('/openapi.json')).body;
    expect(Object.keys(doc.paths['/notes/{id}'].get.responses)).toContain('404');
    expect(Object.keys(doc.paths['/notes'].post.responses)).toContain('422');
    const plain = (await request(notesApp().app).get('/openapi.json')).body;
    expect(Object.keys(plain.paths['/notes'].post.responses)).not.toContain('422');
    expect(Object.keys(plain.paths['/notes/{id}'].put.responses)).toEqual(expect.arrayContaining(['400', '404']));
  });
});

describe('operations with a body', () => {
  it('must state their body faults', () => {
    expect(() =>
      // @ts-expect-error: the compiler asks for bodyFaults too
      new Api().op({ method: 'post', path: '/things', summary: 'make a thing', body: z.object({ a: z.string() }), response: { status: 201, description: 'made' }, handle: () => ({}) }),
    ).toThrow(/POST \/things takes a body, so it must state its bodyFaults/);
  });
});
