import request from 'supertest';
import { eventually, storedCharLength, useTestFleet } from '@fieldcast/runtime/testing';
import { eventsService } from '../src/definition.js';
import { client } from './helpers.js';

const NOW = new Date('2026-05-01T12:00:00.000Z');
const JOB = '6f1c3b1e-8a3c-4a8e-9a55-1d8f0e2c7b10';
const PRODUCT = '2d6a1f0c-3b7e-4f59-8a2e-5c9d1e7b3a40';
const FRAME = '9b0e7c2d-4a1f-4e36-b8d5-0f3a2c6e9d81';

let api: ReturnType<typeof client>;

const t = useTestFleet([eventsService], { now: () => NOW });
beforeAll(() => {
  api = client(t.fleet);
});

// The spec's example (spec 6): a frame created by a job of a tile-building application, tagged with the job, product and frame.
const frameBuilt = (app: string) => ({
  app,
  origin: { namespace: 'tiles/jobs', id: JOB },
  namespace: 'tiles/frames/created',
  message: 'Job {} built a frame of product {}: {}',
  occurrenceTime: '2026-05-01T11:59:00Z',
  tagged: [
    { namespace: 'tiles/jobs', id: JOB },
    { namespace: 'platform/products', id: PRODUCT },
    { namespace: 'platform/frames', id: FRAME },
  ],
});

const countEvents = async () => Number((await t.fleet.db.knex.withSchema('events').table('events').count({ n: '*' }).first())?.n);

describe('POST /events (spec 4.10)', () => {
  it('stores the event and answers 200 with the Event, the service setting id, status and times', async () => {
    const res = await api.post(t.alice, frameBuilt(t.alice.handle));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      app: t.alice.handle,
      origin: { namespace: 'tiles/jobs', id: JOB },
      namespace: 'tiles/frames/created',
      status: 'inactive',
      message: 'Job {} built a frame of product {}: {}',
      creationTime: NOW.toISOString(),
      occurrenceTime: '2026-05-01T11:59:00.000Z',
      expirationTime: null,
      tagged: frameBuilt('x').tagged,
    });
    expect((await api.get(t.alice, `/events/${res.body.id}`)).body).toEqual(res.body);
  });

  it('takes the app as the caller’s id or handle in any case, and names it by handle', async () => {
    for (const app of [t.alice.id, t.alice.handle.toUpperCase()]) {
      const res = await api.post(t.alice, frameBuilt(app));
      expect(res.status).toBe(200);
      expect(res.body.app).toBe(t.alice.handle);
    }
  });

  it('defaults: origin is the application itself, occurrenceTime the request time, tagged empty', async () => {
    const res = await api.post(t.alice, { app: t.alice.handle, namespace: 'irrigation/started', message: 'Irrigation started' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ origin: { namespace: 'apps', id: t.alice.id }, occurrenceTime: NOW.toISOString(), tagged: [] });
  });

  it('another application’s name is 403 app_not_allowed and stores nothing', async () => {
    for (const app of [t.bob.handle, t.bob.id, 'agriculture']) {
      const res = await api.post(t.alice, frameBuilt(app));
      expect(res.status).toBe(403);
      expect(res.body.id).toBe('app_not_allowed');
    }
    expect(await countEvents()).toBe(0);
  });

  it.each([
    ['namespace missing', (b: Record<string, unknown>) => delete b.namespace, 'namespace'],
    ['namespace not path-like', (b: Record<string, unknown>) => (b.namespace = 'tiles//frames'), 'namespace'],
    ['namespace with a leading slash', (b: Record<string, unknown>) => (b.namespace = '/tiles/frames'), 'namespace'],
    ['namespace with spaces', (b: Record<string, unknown>) => (b.namespace = 'tiles frames'), 'namespace'],
    ['app missing', (b: Record<string, unknown>) => delete b.app, 'app'],
    ['message missing', (b: Record<string, unknown>) => delete b.message, 'message'],
    ['message empty', (b: Record<string, unknown>) => (b.message = ''), 'message'],
    ['occurrenceTime not ISO 8601', (b: Record<string, unknown>) => (b.occurrenceTime = '01/05/2026 11:59'), 'occurrenceTime'],
    ['occurrenceTime without a zone', (b: Record<string, unknown>) => (b.occurrenceTime = '2026-05-01T11:59:00'), 'occurrenceTime'],
    ['origin id not a UUID', (b: Record<string, unknown>) => (b.origin = { namespace: 'tiles/jobs', id: '42' }), 'origin.id'],
    [
      'tagged namespace not path-like',
      (b: { tagged: { namespace: string }[] }) => (b.tagged[1]!.namespace = 'platform products'),
      'tagged.1.namespace',
    ],
    ['tagged id not a UUID', (b: { tagged: { id: string }[] }) => (b.tagged[2]!.id = 'frame'), 'tagged.2.id'],
    ['status set by the client', (b: Record<string, unknown>) => (b.status = 'active'), 'status'],
    ['expirationTime set by the client', (b: Record<string, unknown>) => (b.expirationTime = null), 'expirationTime'],
    ['id set by the client', (b: Record<string, unknown>) => (b.id = JOB), 'id'],
  ])('400 with the path when %s, and nothing stored', async (_name, mutate, path) => {
    const body = frameBuilt(t.alice.handle);
    (mutate as (b: unknown) => void)(body);
    const res = await api.post(t.alice, body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.id).toBe('invalid_body');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await countEvents()).toBe(0);
  });

  it('each fault’s words say what is wrong with the member: missing, of another type or too long, not one for all', async () => {
    const words = async (mutate: (b: Record<string, unknown>) => void) => {
      const body: Record<string, unknown> = frameBuilt(t.alice.handle);
      mutate(body);
      const res = await api.post(t.alice, body);
      expect(res.status).toBe(400);
      return Object.fromEntries((res.body.errors as { path: string; message: string }[]).map((e) => [e.path, e.message]));
    };
    expect(
      await words((b) => {
        delete b.app;
        delete b.namespace;
        delete b.message;
        b.origin = { id: JOB };
      }),
    ).toEqual({
      app: 'is missing: must be the calling application’s handle or id',
      namespace: 'is missing: must be a string',
      message: 'is missing: must be a string',
      'origin.namespace': 'is missing: must be a string',
    });
    expect(
      await words((b) => {
        b.app = 5;
        b.namespace = 7;
        b.message = ['x'];
      }),
    ).toEqual({
      app: 'must be the calling application’s handle or id, not a number',
      namespace: 'must be a string, not a number',
      message: 'must be a string, not an array',
    });
    expect(await words((b) => (b.app = 'a'.repeat(64)))).toEqual({ app: 'must have at most 63 characters' });
    expect(await words((b) => (b.app = ''))).toEqual({ app: 'must not be empty: the calling application’s handle or id' });
    expect(await countEvents()).toBe(0);
  });

  it('the OpenAPI document lets no value through where the service sets the member, as the service refuses it', async () => {
    const doc = (await request(t.fleet.app('events')).get('/openapi.json')).body;
    const input = doc.components.schemas.EventInput;
    for (const member of ['id', 'status', 'creationTime', 'expirationTime'])
      expect([member, input.properties[member].not]).toEqual([member, {}]);
  });

  it('an unknown key is refused rather than ignored (a misspelt occurrenceTime would silently default)', async () => {
    const res = await api.post(t.alice, { ...frameBuilt(t.alice.handle), occurenceTime: '2026-05-01T11:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/occurenceTime/);
    expect(await countEvents()).toBe(0);
  });

  it('the message counts characters: 1,000 outside the BMP are stored, 1,001 refused at message (decision 0485)', async () => {
    const corn = '\u{1F33D}'; // one character, two UTF-16 code units
    const note = (message: string) => ({ app: t.alice.handle, namespace: 'farm/notes', message });
    const res = await api.post(t.alice, note(corn.repeat(1000)));
    expect([res.status, res.body.message]).toEqual([200, corn.repeat(1000)]);
    expect(await storedCharLength(t.fleet, 'events.events', res.body.id, 'message')).toBe(1000);
    const over = await api.post(t.alice, note(corn.repeat(1001)));
    expect([over.status, over.body.errors]).toEqual([400, [{ path: 'message', message: 'is at most 1000 characters' }]]);
    expect(await countEvents()).toBe(1);
  });

  it('422 message_slots_mismatch when the {} slots do not match tagged, with the path', async () => {
    for (const message of ['Job {} built a frame of {}', 'Job {} built {} {} {}', 'No slots']) {
      const res = await api.post(t.alice, { ...frameBuilt(t.alice.handle), message });
      expect(res.status).toBe(422);
      expect(res.body.id).toBe('message_slots_mismatch');
      expect(res.body.errors).toEqual([{ path: 'message', message: expect.stringContaining('tagged lists 3 resources') }]);
    }
    expect(await countEvents()).toBe(0);
  });

  it('422 occurrence_in_future beyond five minutes of skew; within it is accepted', async () => {
    const far = await api.post(t.alice, { ...frameBuilt(t.alice.handle), occurrenceTime: '2026-05-01T12:06:00Z' });
    expect(far.status).toBe(422);
    expect(far.body.errors[0].path).toBe('occurrenceTime');
    expect(await countEvents()).toBe(0);
    expect((await api.post(t.alice, { ...frameBuilt(t.alice.handle), occurrenceTime: '2026-05-01T12:04:00Z' })).status).toBe(200);
  });

  it('422 occurrence_too_early before 1583 (ISO 8601:2004 §3.2.1: earlier years only by agreement); from then on read back as sent', async () => {
    for (const occurrenceTime of ['0000-03-01T00:00:00Z', '0099-03-01T00:00:00Z', '1582-12-31T23:59:59.999Z']) {
      const res = await api.post(t.alice, { ...frameBuilt(t.alice.handle), occurrenceTime });
      expect([occurrenceTime, res.status, res.body.id, res.body.errors?.[0]?.path]).toEqual([
        occurrenceTime,
        422,
        'occurrence_too_early',
        'occurrenceTime',
      ]);
    }
    expect(await countEvents()).toBe(0);
    const earliest = await api.post(t.alice, { ...frameBuilt(t.alice.handle), occurrenceTime: '1583-01-01T00:00:00Z' });
    expect(earliest.body.occurrenceTime).toBe('1583-01-01T00:00:00.000Z');
    expect((await api.get(t.alice, `/events/${earliest.body.id}`)).body.occurrenceTime).toBe('1583-01-01T00:00:00.000Z');
    expect((await api.get(t.alice, '/events')).body[0].occurrenceTime).toBe('1583-01-01T00:00:00.000Z');
  });

  it('takes occurrenceTime in every form of UTC the other areas take: +00:00, -00:00, no seconds, any fraction (decision 0522)', async () => {
    // Python's isoformat() of a UTC datetime writes +00:00; spec 2 asks for UTC, which it is.
    for (const [sent, stored] of [
      ['2026-05-01T11:59:00+00:00', '2026-05-01T11:59:00.000Z'],
      ['2026-05-01T11:59:00.123456-00:00', '2026-05-01T11:59:00.123Z'],
      ['2026-05-01T11:59Z', '2026-05-01T11:59:00.000Z'],
    ]) {
      const res = await api.post(t.alice, { ...frameBuilt(t.alice.handle), occurrenceTime: sent });
      expect([sent, res.status, res.body.occurrenceTime]).toEqual([sent, 200, stored]);
    }
    // another offset is no UTC timestamp: refused, and told which forms are
    const res = await api.post(t.alice, { ...frameBuilt(t.alice.handle), occurrenceTime: '2026-05-01T17:29:00+05:30' });
    expect([res.status, res.body.errors]).toEqual([400, [{ path: 'occurrenceTime', message: expect.stringContaining('Z or +00:00') }]]);
  });

  it('401 without credentials', async () => {
    const res = await request(t.fleet.app('events')).post('/events').send(frameBuilt(t.alice.handle));
    expect(res.status).toBe(401);
  });
});

describe('GET /events/{id} and /event/{id} (spec 4.10)', () => {
  it('both paths give the Event with its namespace', async () => {
    const created = (await api.post(t.alice, frameBuilt(t.alice.handle))).body;
    for (const path of [`/events/${created.id}`, `/event/${created.id}`]) {
      const res = await api.get(t.alice, path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
      expect(res.body.namespace).toBe('tiles/frames/created');
    }
  });

  it('404 event_does_not_exist for an unknown id; 400 for a malformed one', async () => {
    const unknown = await api.get(t.alice, `/event/${JOB}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('event_does_not_exist');
    const bad = await api.get(t.alice, '/events/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('id');
  });

  it('the posted event reaches the app’s, the origin’s and every tagged resource’s feed', async () => {
    const created = (await api.post(t.alice, frameBuilt(t.alice.handle))).body;
    await eventually(async () => {
      for (const path of [
        '/events',
        `/apps/${t.alice.handle}/events`,
        `/apps/${t.alice.id}/events`,
        `/resources/${JOB}/events`,
        `/resources/${PRODUCT}/events`,
        `/resources/${FRAME}/events`,
      ]) {
        expect(await api.ids(t.alice, path)).toEqual([created.id]);
      }
    });
    const entry = (await api.get(t.alice, '/events')).body[0];
    expect(entry).not.toHaveProperty('namespace');
    expect(entry).toEqual({ ...created, namespace: undefined });
  });
});
