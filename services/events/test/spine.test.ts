import request from 'supertest';
import { resourceEvent } from '@fieldcast/bus';
import { eventually, type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '@fieldcast/agriculture';
import { eventsService } from '../src/definition.js';

const fieldBody = (description = 'f') => ({
  description,
  type: 'GeometryCollection',
  geometries: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0.01, 0],
          [0.01, 0.01],
          [0, 0.01],
          [0, 0],
        ],
      ],
    },
  ],
});

const t = useTestFleet([agricultureService, eventsService]);

const feed = (account: TestAccount, query = '') => request(t.fleet.app('events')).get(`/events${query}`).set('Authorization', account.auth);

async function createField(account: TestAccount, description = 'f') {
  const res = await request(t.fleet.app('agriculture')).post('/fields').set('Authorization', account.auth).send(fieldBody(description));
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** How many consumed messages had this outcome so far, from the events app's /metrics. */
async function consumed(outcome: string): Promise<number> {
  const text = (await request(t.fleet.app('events')).get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`fieldcast_consumer_messages_total{group="events",outcome="${outcome}"`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('events spine: fields reach their owner’s feed', () => {
  it('a field’s life cycle appears newest first, in the owner’s feed only', async () => {
    const field = await createField(t.alice);
    await request(t.fleet.app('agriculture')).delete(`/fields/${field.id}`).set('Authorization', t.alice.auth);
    const events = await eventually(async () => {
      const res = await feed(t.alice);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      return res.body;
    });
    expect(events.map((e: { message: string }) => e.message)).toEqual(['Field {} was deleted', 'Field {} was created']);
    expect(events[1]).toEqual({
      id: expect.any(String),
      app: 'agriculture',
      origin: { namespace: 'agriculture/fields', id: field.id },
      status: 'inactive',
      message: 'Field {} was created',
      creationTime: expect.stringMatching(/Z$/),
      occurrenceTime: expect.stringMatching(/Z$/),
      expirationTime: null,
      tagged: [{ namespace: 'agriculture/fields', id: field.id }],
    });
    expect(events[1]).not.toHaveProperty('namespace');
    expect(Object.keys(events[1].tagged[0])).toEqual(['namespace', 'id']);
    const other = await feed(t.bob);
    expect(other.body).toEqual([]);
  });

  it('a redelivered CloudEvent is stored once', async () => {
    const event = resourceEvent({
      area: 'agriculture',
      resource: 'field',
      action: 'created',
      subject: '0b5b8a4e-1f0a-4c55-9d7e-2f9a3c1d4e5f',
      data: { account: t.alice.id, resource: {} },
    });
    const message = { topic: 'fieldcast.agriculture.fields', key: event.subject, event };
    const [stored, duplicates] = [await consumed('stored'), await consumed('duplicate')];
    await t.fleet.transport.publish([message]);
    await t.fleet.transport.publish([message]);
    await createField(t.alice); // a later message, to know the duplicates were consumed
    await eventually(async () => expect((await feed(t.alice)).body).toHaveLength(2));
    const rows = await t.fleet.db.knex.withSchema('events').table('events').where({ source_event_id: event.id });
    expect(rows).toHaveLength(1);
    expect([(await consumed('stored')) - stored, (await consumed('duplicate')) - duplicates]).toEqual([2, 1]);
  });

  it('a poisoned message is dead-lettered with its reason and later messages still arrive', async () => {
    const poison = { topic: 'fieldcast.agriculture.fields', key: 'k', event: { not: 'a cloud event' } as never };
    const deadLettered = await consumed('dead_lettered');
    await t.fleet.transport.publish([poison]);
    await createField(t.alice);
    await eventually(async () => expect((await feed(t.alice)).body).toHaveLength(1));
    const dead = await t.fleet.db.knex.withSchema('events').table('dead_letters');
    expect(dead).toHaveLength(1);
    expect(dead[0].reason).toBe('not a CloudEvent: specversion is not 1.0');
    expect((await consumed('dead_lettered')) - deadLettered).toBe(1);
  });
});

describe('events spine: keyset paging', () => {
  it('after and before page without skipping or repeating, even while events arrive', async () => {
    for (let i = 0; i < 5; i++) await createField(t.alice, `f${i}`);
    await eventually(async () => expect((await feed(t.alice, '?limit=100')).body).toHaveLength(5));
    const all = (await feed(t.alice, '?limit=100')).body.map((e: { id: string }) => e.id);
    const first = (await feed(t.alice, '?limit=2')).body.map((e: { id: string }) => e.id);
    expect(first).toEqual(all.slice(0, 2));
    await createField(t.alice, 'late'); // arrives at the head; must not shift the next page
    const second = (await feed(t.alice, `?limit=2&after=${first[1]}`)).body.map((e: { id: string }) => e.id);
    expect(second).toEqual(all.slice(2, 4));
    const back = (await feed(t.alice, `?limit=2&before=${second[0]}`)).body.map((e: { id: string }) => e.id);
    expect(back).toEqual(all.slice(0, 2));
  });

  it('rejects after with before, an unknown cursor, and a bad limit', async () => {
    const id = '0b5b8a4e-1f0a-4c55-9d7e-2f9a3c1d4e5f';
    const both = await feed(t.alice, `?after=${id}&before=${id}`);
    expect(both.status).toBe(400);
    const unknown = await feed(t.alice, `?after=${id}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.id).toBe('unknown_cursor');
    const limit = await feed(t.alice, '?limit=0');
    expect(limit.status).toBe(400);
    expect(limit.body.errors[0].path).toBe('limit');
  });

  it('another account’s event is an unknown cursor, not a way in', async () => {
    await createField(t.bob);
    const bobs = await eventually(async () => {
      const rows = await t.fleet.db.knex.withSchema('events').table('events').where({ owner_account: t.bob.id });
      expect(rows).toHaveLength(1);
      return rows;
    });
    const res = await feed(t.alice, `?after=${bobs[0].id}`);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('unknown_cursor');
  });
});
