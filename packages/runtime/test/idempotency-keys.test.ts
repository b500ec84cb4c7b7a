import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { z } from 'zod';
import {
  IDEMPOTENCY_KEY_RETENTION_MS,
  IdempotencyKeys,
  idempotencyKeysMigration,
  keepsIdempotencyKeys,
  keptAnswerTagsMigration,
  OwnedResourceStore,
  type OwnedResourceTable,
} from '@fieldcast/db';
import { Api, BodyFault, type Limits, ownedResourceRoutes, ValidationError } from '@fieldcast/kit';
import { defineService } from '../src/needs.js';
import { useTestFleet } from '../src/testing.js';

/**
 * Creates under an Idempotency-Key (docs/interface.md §1, draft-ietf-httpapi-idempotency-key-header),
 * through the kit's operations, the db's kept answers and the runtime's wiring, on a small area of
 * notes: an owned resource, a create that waits for the test, and one that fails after writing.
 */
interface Note {
  id: string;
  accountId: string;
  text: string;
}

const AREA = 'notes';
const TOPIC = 'fieldcast.notes.notes';
const NOTES: OwnedResourceTable<Note> = {
  area: AREA,
  table: 'notes',
  kind: 'note',
  topic: TOPIC,
  columns: ['id', 'account_id', 'text'],
  fromRow: (row) => ({ id: row.id as string, accountId: row.account_id as string, text: row.text as string }),
  toRow: (note) => ({ id: note.id, account_id: note.accountId, text: note.text }),
  snapshot: (note) => ({ id: note.id, text: note.text }),
};
const NoteInput = z.object({ text: z.string().min(1) });
const NoteView = z.object({ id: z.string(), text: z.string() });

/** Opened by a test to let the waiting create go on. */
let gate: Promise<void> = Promise.resolve();

const notesService = defineService({
  area: AREA,
  port: 1,
  title: 'Notes',
  description: 'an owned resource whose creates take an Idempotency-Key',
  needs: {
    database: {
      migrations: [
        {
          name: '001_notes',
          up: (knex, schema) =>
            knex.schema.withSchema(schema).createTable('notes', (t) => {
              t.uuid('id').primary();
              t.uuid('account_id').notNullable();
              t.text('text').notNullable();
              t.timestamp('created_at', { useTz: true }).notNullable();
              t.timestamp('updated_at', { useTz: true }).notNullable();
              t.index(['account_id', 'created_at', 'id']);
            }),
        },
        idempotencyKeysMigration('002_idempotency_keys'),
        keptAnswerTagsMigration('003_kept_answer_tags'),
      ],
    },
    outbox: { topics: [TOPIC] },
  },
  api(deps) {
    const store = new OwnedResourceStore(deps.db.knex, deps.outbox, deps.now, NOTES);
    const api = ownedResourceRoutes(new Api(), store, {
      kind: 'note',
      path: '/notes',
      tag: 'notes',
      noun: { one: 'note', many: 'notes' },
      input: NoteInput,
      bodyFaults: BodyFault.malformed,
      view: NoteView,
      build: (id, accountId, input) => ({ id, accountId, text: input.text }),
      present: (note) => ({ id: note.id, text: note.text }),
    });
    return api
      .op({
        method: 'post',
        path: '/waiting-notes',
        summary: 'Create a note once the test lets it',
        body: NoteInput,
        bodyFaults: BodyFault.malformed,
        response: { status: 201, description: 'The note', schema: NoteView },
        location: '/notes/{id}',
        handle: async ({ account, body }) => {
          await gate;
          const note = (await store.create({ id: randomUUID(), accountId: account.id, text: body.text }))!;
          return { id: note.id, text: note.text };
        },
      })
      .op({
        method: 'post',
        path: '/failing-notes',
        summary: 'Create a note, then fail',
        body: NoteInput,
        bodyFaults: BodyFault.malformed,
        response: { status: 201, description: 'Never given', schema: NoteView },
        location: '/notes/{id}',
        errors: [422],
        handle: async ({ account, body }) => {
          await store.create({ id: randomUUID(), accountId: account.id, text: body.text });
          throw new ValidationError('failed_after_writing', 'The note was written, then the request failed');
        },
      });
  },
});

let clock = Date.parse('2026-03-01T00:00:00Z');
const t = useTestFleet([notesService], { now: () => new Date(clock) });
const app = () => t.fleet.app(AREA);
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';

const post = (path: string, auth: string, body: object, key?: string) => {
  const req = request(app()).post(path).set('Authorization', auth).set('Accept', JSON_V1);
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
};
const count = async (table: string) => Number((await t.fleet.db.knex.withSchema(AREA).table(table).count({ n: '*' }).first())?.n);

beforeEach(() => {
  clock = Date.parse('2026-03-01T00:00:00Z');
  gate = Promise.resolve();
});

describe('a create sent again under its Idempotency-Key', () => {
  it('gets the first answer again (status, Location, body), marked replayed, and creates nothing more', async () => {
    const first = await post('/notes', t.alice.auth, { text: 'north gate' }, '"8e03978e-40d5-43e8-bc93-6894a57f9324"');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    clock += 3_600_000;
    // the same request, the members in another order and spaced otherwise: the same fingerprint
    const again = await request(app())
      .post('/notes')
      .set('Authorization', t.alice.auth)
      .set('Accept', JSON_V1)
      .set('Content-Type', 'application/json')
      .set('Idempotency-Key', ' "8e03978e-40d5-43e8-bc93-6894a57f9324" ')
      .send('{ "text" : "north gate" }');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    // the create's entity tag too, so a client that retried may go on with If-Match (RFC 9110 section 13.1.1)
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.text).toBe(first.text);
    expect(await count('notes')).toBe(1);
    expect(await count('outbox')).toBe(1);
    expect(await count('idempotency_keys')).toBe(1);
  });

  it('is refused for a schema that keeps keys without their answers’ tags, whose keeping would fail', () => {
    expect(() => keepsIdempotencyKeys([idempotencyKeysMigration('001_keys')])).toThrow(/keptAnswerTagsMigration/);
    expect(keepsIdempotencyKeys([idempotencyKeysMigration('001_keys'), keptAnswerTagsMigration('002_tags')])).toBe(true);
    expect(keepsIdempotencyKeys([])).toBe(false);
  });

  it('without a key, each create creates', async () => {
    await post('/notes', t.alice.auth, { text: 'a' });
    await post('/notes', t.alice.auth, { text: 'a' });
    expect(await count('notes')).toBe(2);
  });

  it('refuses the key with another body (422) and another path (422), creating nothing', async () => {
    expect((await post('/notes', t.alice.auth, { text: 'a' }, '"k1"')).status).toBe(201);
    const other = await post('/notes', t.alice.auth, { text: 'b' }, '"k1"');
    expect(other.status).toBe(422);
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(other.body).toMatchObject({
      id: 'idempotency_key_reused',
      status: 422,
      detail: expect.stringContaining('different request payload'),
    });
    expect((await post('/waiting-notes', t.alice.auth, { text: 'a' }, '"k1"')).status).toBe(422);
    expect(await count('notes')).toBe(1);
  });

  it('keeps each account’s keys apart', async () => {
    expect((await post('/notes', t.alice.auth, { text: 'a' }, '"shared"')).status).toBe(201);
    const bob = await post('/notes', t.bob.auth, { text: 'a' }, '"shared"');
    expect(bob.status).toBe(201);
    expect(bob.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('notes')).toBe(2);
  });

  it('refuses a key of another form (400 naming the header), creating nothing', async () => {
    for (const key of ['plain-token', '""', `"${'k'.repeat(256)}"`, '"a", "b"', '"caf\u00e9"', '"a";p=1', '"trailing\\"']) {
      const res = await post('/notes', t.alice.auth, { text: 'a' }, key);
      expect([key, res.status, res.body.id]).toEqual([key, 400, 'invalid_idempotency_key']);
      expect(res.body.errors).toEqual([{ path: 'Idempotency-Key', message: expect.any(String) }]);
    }
    expect(await count('notes')).toBe(0);
    // 255 characters, and escaped quotes and backslashes, are keys
    expect((await post('/notes', t.alice.auth, { text: 'a' }, `"${'k'.repeat(255)}"`)).status).toBe(201);
    expect((await post('/notes', t.alice.auth, { text: 'a' }, '"a\\"b\\\\c"')).status).toBe(201);
    expect(await count('notes')).toBe(2);
  });

  it('answers 409 while the first request with the key is still under way, then the first answer', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const first = post('/waiting-notes', t.alice.auth, { text: 'a' }, '"busy"').then((r) => r);
    // the first has reached its handler once a request without a key is answered after it
    await post('/notes', t.bob.auth, { text: 'b' });
    const during = await post('/waiting-notes', t.alice.auth, { text: 'a' }, '"busy"');
    expect(during.status).toBe(409);
    expect(during.body.id).toBe('idempotency_key_in_progress');
    open();
    expect((await first).status).toBe(201);
    const after = await post('/waiting-notes', t.alice.auth, { text: 'a' }, '"busy"');
    expect(after.status).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.text).toBe((await first).text);
    expect(await count('notes')).toBe(2);
  });

  it('writes the key in the create’s transaction: a request that fails after writing leaves neither', async () => {
    const failed = await post('/failing-notes', t.alice.auth, { text: 'a' }, '"fails"');
    expect(failed.status).toBe(422);
    expect(await count('notes')).toBe(0);
    expect(await count('outbox')).toBe(0);
    expect(await count('idempotency_keys')).toBe(0);
    // nothing was kept, so the key is free for the request sent again
    expect((await post('/notes', t.alice.auth, { text: 'a' }, '"fails"')).status).toBe(201);
  });

  it('forgets a key after 24 hours, and the background task prunes it', async () => {
    expect((await post('/notes', t.alice.auth, { text: 'a' }, '"old"')).status).toBe(201);
    clock += IDEMPOTENCY_KEY_RETENTION_MS - 1;
    expect((await post('/notes', t.alice.auth, { text: 'a' }, '"old"')).headers['idempotent-replayed']).toBe('true');
    clock += 1;
    const later = await post('/notes', t.alice.auth, { text: 'a' }, '"old"');
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('notes')).toBe(2);
    expect((await post('/notes', t.alice.auth, { text: 'b' }, '"older"')).status).toBe(201);
    clock += IDEMPOTENCY_KEY_RETENTION_MS;
    await t.fleet.runBackground(AREA, 'idempotency-keys');
    expect(await count('idempotency_keys')).toBe(0);
  });

  it('keeps at most as many live answers per account as it may own of a kind: a create and delete loop cannot grow them without end', async () => {
    const limits = app().locals.limits as Limits;
    app().locals.limits = { ...limits, ownedPerKind: 2 };
    try {
      for (const key of ['"loop-1"', '"loop-2"']) {
        const made = await post('/notes', t.alice.auth, { text: 'a' }, key);
        expect(made.status).toBe(201);
        expect((await request(app()).delete(made.headers.location!).set('Authorization', t.alice.auth)).status).toBe(200);
      }
      const refused = await post('/notes', t.alice.auth, { text: 'a' }, '"loop-3"');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ id: 'idempotency_keys_exhausted', status: 429 });
      expect(refused.headers['retry-after']).toBe(String(IDEMPOTENCY_KEY_RETENTION_MS / 1000));
      expect(await count('notes')).toBe(0);
      expect(await count('idempotency_keys')).toBe(2);
      // a kept answer is still sent again, another account keeps its own, and a create without a key creates
      expect((await post('/notes', t.alice.auth, { text: 'a' }, '"loop-1"')).headers['idempotent-replayed']).toBe('true');
      expect((await post('/notes', t.bob.auth, { text: 'a' }, '"loop-3"')).status).toBe(201);
      expect((await post('/notes', t.alice.auth, { text: 'a' })).status).toBe(201);
      // once the first answers expire, keys are taken again
      clock += IDEMPOTENCY_KEY_RETENTION_MS;
      expect((await post('/notes', t.alice.auth, { text: 'b' }, '"loop-3"')).status).toBe(201);
    } finally {
      app().locals.limits = limits;
    }
  });

  it('lets the primary key decide between replicas: a second claim of a kept key creates nothing', async () => {
    const now = () => new Date(clock);
    const store = new OwnedResourceStore(t.fleet.db.knex, t.fleet.deps(AREA).outbox!, now, NOTES);
    const create = (keys: IdempotencyKeys) =>
      keys.claim({ accountId: t.alice.id, key: 'raced', fingerprint: 'f' }, async () => {
        await store.create({ id: randomUUID(), accountId: t.alice.id, text: 'a' });
        return { result: 'made', answer: { status: 201, location: null, etag: null, body: '{}' } };
      });
    // two replicas, neither seeing the other's request under way
    expect(await create(new IdempotencyKeys(t.fleet.db.knex, AREA, now))).toEqual({ done: 'made' });
    expect(await create(new IdempotencyKeys(t.fleet.db.knex, AREA, now))).toEqual({ refused: 'taken' });
    expect(await count('notes')).toBe(1);
    expect(await count('outbox')).toBe(1);
  });

  it('gives work a request under a key sets going, run on after it (the outbox relay waking a consumer), transactions of its own', async () => {
    const now = () => new Date(clock);
    const store = new OwnedResourceStore(t.fleet.db.knex, t.fleet.deps(AREA).outbox!, now, NOTES);
    let later: Promise<unknown> = Promise.resolve();
    const keys = new IdempotencyKeys(t.fleet.db.knex, AREA, now);
    const outcome = await keys.claim({ accountId: t.alice.id, key: 'context', fingerprint: 'f' }, async () => {
      await store.create({ id: randomUUID(), accountId: t.alice.id, text: 'in the request' });
      // continued from the request's async context once its transaction has committed, as a relay is
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        store.create({ id: randomUUID(), accountId: t.bob.id, text: 'by a consumer' }),
      );
      return { result: 'made', answer: { status: 201, location: null, etag: null, body: '{}' } };
    });
    expect(outcome).toEqual({ done: 'made' });
    await later;
    const texts = await t.fleet.db.knex.withSchema(AREA).table('notes').whereIn('text', ['in the request', 'by a consumer']).pluck('text');
    expect(texts.sort()).toEqual(['by a consumer', 'in the request']);
  });

  it('documents the header, the replay mark, 409 and 422 on each create and on nothing else', async () => {
    const doc = (await request(app()).get('/openapi.json')).body;
    const header = (op: { parameters: { in: string; name: string }[] }) =>
      op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    for (const path of ['/notes', '/waiting-notes', '/failing-notes']) {
      const op = doc.paths[path].post;
      expect([path, header(op)]).toEqual([path, ['Idempotency-Key']]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '409', '422']));
      expect(Object.keys(op.responses['201'].headers)).toContain('Idempotent-Replayed');
    }
    expect(header(doc.paths['/notes'].get)).toEqual([]);
    // a replace takes If-Match and If-None-Match (conditional.ts), never an Idempotency-Key
    expect(header(doc.paths['/notes/{id}'].put)).toEqual(['If-Match', 'If-None-Match']);
  });
});
