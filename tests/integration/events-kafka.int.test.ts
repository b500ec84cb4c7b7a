import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { agricultureService } from '@fieldcast/agriculture';
import { resourceEvent } from '@fieldcast/bus';
import { openDatabase, type Database } from '@fieldcast/db';
import { eventsService } from '@fieldcast/events';
import { eventually } from '@fieldcast/runtime/testing';
import { deploy, fieldBody, newAccount, requireEnv } from './helpers.js';

/**
 * Feed reads at scale (docs/decisions/0029-feed-reads-at-scale.md) against real PostgreSQL and Kafka, with agriculture and events as separate deployments:
 * the endpoints under distributed serving, a topic created after the consumer started,
 * duplicate delivery, and a poisoned message among good ones.
 */
let agriculture: Awaited<ReturnType<typeof deploy>>;
let events: Awaited<ReturnType<typeof deploy>>;
let kafka: Kafka;
let producer: Producer;
let db: Database;

beforeAll(async () => {
  agriculture = await deploy(agricultureService);
  events = await deploy(eventsService);
  kafka = new Kafka({ clientId: 'it-events-producer', brokers: requireEnv().brokers, logLevel: logLevel.NOTHING });
  producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  db = await openDatabase({ url: requireEnv().url });
});
afterAll(async () => {
  await producer?.disconnect();
  await db?.close();
  await agriculture?.stop();
  await events?.stop();
});

const get = async (auth: string, path: string) => {
  const res = await fetch(`${events.url}${path}`, { headers: { Authorization: auth } });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
};
const ids = async (auth: string, path: string): Promise<string[]> => {
  const res = await get(auth, path);
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((e) => e.id);
};
async function createField(auth: string): Promise<string> {
  const res = await fetch(`${agriculture.url}/fields`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(fieldBody('it')),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

it('POST /events and every read path answer with the spec’s shapes under distributed serving', async () => {
  const me = await newAccount('emitter');
  const tagged = randomUUID();
  const res = await fetch(`${events.url}/events`, {
    method: 'POST',
    headers: { Authorization: me.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      app: me.id,
      namespace: 'sensors/reported',
      message: 'Sensor {} reported',
      tagged: [{ namespace: 'sensors', id: tagged }],
    }),
  });
  expect(res.status).toBe(200);
  const event = (await res.json()) as { id: string; namespace: string; status: string; expirationTime: null };
  expect(event).toMatchObject({ namespace: 'sensors/reported', status: 'inactive', expirationTime: null });
  for (const path of [`/events/${event.id}`, `/event/${event.id}`]) expect((await get(me.auth, path)).body).toEqual(event);
  // The main feed also holds whatever public events other tests produced; the others are this event's alone.
  expect(await ids(me.auth, '/events?limit=100')).toContain(event.id);
  for (const path of [`/apps/${me.id}/events`, `/resources/${tagged}/events`]) expect(await ids(me.auth, path)).toEqual([event.id]);
  const stranger = await newAccount('stranger');
  expect((await get(stranger.auth, `/events/${event.id}`)).status).toBe(404);
  expect(await ids(stranger.auth, `/resources/${tagged}/events`)).toEqual([]);
});

it('a topic of the same form created after the consumer started is picked up', async () => {
  const owner = await newAccount('newtopic');
  const topic = `fieldcast.it${Date.now().toString(36)}.things`;
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: -1 }] });
  } finally {
    await admin.disconnect();
  }
  const subject = randomUUID();
  const event = resourceEvent({
    area: topic.split('.')[1]!,
    resource: 'thing',
    action: 'created',
    subject,
    data: { account: owner.id, resource: {} },
  });
  await producer.send({ topic, messages: [{ key: subject, value: JSON.stringify(event) }] });
  const feed = await eventually(
    async () => {
      const res = await get(owner.auth, `/resources/${subject}/events`);
      expect(res.body).toHaveLength(1);
      return res.body;
    },
    60_000,
    500,
  );
  expect(feed[0]).toMatchObject({ app: topic.split('.')[1], message: 'Thing {} was created', origin: { id: subject } });
});

it('a duplicate delivery is stored once; a poisoned message is dead-lettered while later messages still arrive', async () => {
  const owner = await newAccount('dup');
  const subject = randomUUID();
  const duplicate = resourceEvent({
    area: 'agriculture',
    resource: 'field',
    action: 'updated',
    subject,
    data: { account: owner.id, resource: {} },
  });
  const marker = `poison-${randomUUID()}`;
  await producer.send({
    topic: 'fieldcast.agriculture.fields',
    messages: [
      { key: subject, value: JSON.stringify(duplicate) },
      { key: subject, value: `{"${marker}": ` },
      { key: subject, value: JSON.stringify(duplicate) },
    ],
  });
  const later = await createField(owner.auth);
  await eventually(
    async () => {
      const feed = (await get(owner.auth, '/events?limit=100')).body as { origin: { id: string } }[];
      expect(feed.filter((e) => e.origin.id === later)).toHaveLength(1);
      expect(feed.filter((e) => e.origin.id === subject)).toHaveLength(1);
    },
    60_000,
    500,
  );
  const dead = await db.knex.withSchema('events').table('dead_letters').where('value', 'like', `%${marker}%`);
  expect(dead).toHaveLength(1);
  expect(dead[0]).toMatchObject({ topic: 'fieldcast.agriculture.fields', reason: 'not a CloudEvent: not JSON' });
  expect(await db.knex.withSchema('events').table('events').where({ source_event_id: duplicate.id })).toHaveLength(1);
});

it('/metrics reports the pipeline against the broker: connected, outbox drained, the events group caught up', async () => {
  const owner = await newAccount('metrics');
  await createField(owner.auth);
  const figures = async (url: string, name: string) =>
    (await (await fetch(`${url}/metrics`)).text())
      .split('\n')
      .filter((l) => l.startsWith(name))
      .map((l) => ({ series: l.slice(0, l.lastIndexOf(' ')), value: Number(l.slice(l.lastIndexOf(' ') + 1)) }));
  await eventually(
    async () => {
      expect(await figures(agriculture.url, 'fieldcast_broker_connected')).toEqual([
        { series: 'fieldcast_broker_connected{service="agriculture"}', value: 1 },
      ]);
      expect(await figures(agriculture.url, 'fieldcast_outbox_unsent_rows')).toEqual([
        { series: 'fieldcast_outbox_unsent_rows{service="agriculture"}', value: 0 },
      ]);
      const lag = await figures(events.url, 'fieldcast_consumer_lag_messages{group="events",topic="fieldcast.agriculture.fields"');
      // the fields topic's partitions, each read to its end by the events group
      expect(lag.length).toBeGreaterThan(0);
      expect(lag.every((l) => l.value === 0)).toBe(true);
    },
    60_000,
    500,
  );
});
