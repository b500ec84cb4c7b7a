import { InProcessTransport, type IncomingMessage } from '@fieldcast/bus';
import { outboxWriter } from '@fieldcast/db';
import { Api, createLogger } from '@fieldcast/kit';
import { defineService } from '../src/needs.js';
import { startServices } from '../src/services.js';
import { openTestDatabase } from '../src/testing.js';

/*
 * The in-process bus of the embedded fleet is a log in memory: what is not consumed when the
 * process ends is gone. So a shutdown hands over first (docs/decisions/0493-a-shutdown-hands-over-what-was-written.md):
 * every outbox of the process publishes what it holds and the consumers of the process take it,
 * before any of them stops.
 */
const TOPIC = 'fieldcast.writer.things';
const received: string[] = [];
let failing = false;
const writer = defineService({
  area: 'writer',
  port: 1,
  title: 'Writer',
  description: 'writes events to its outbox',
  needs: { database: { migrations: [] }, outbox: { topics: [TOPIC] } },
  api: () => new Api(),
});
const reader = defineService({
  area: 'reader',
  port: 2,
  title: 'Reader',
  description: 'consumes the writer’s events',
  needs: {},
  consumers: () => [
    {
      group: 'reader',
      topics: /^fieldcast\.writer\./,
      handle: async (message: IncomingMessage) => {
        if (failing) throw new Error('cannot take it now');
        received.push((JSON.parse(message.value) as { subject: string }).subject);
      },
    },
  ],
  api: () => new Api(),
});

/** The two areas in one process, the writer first: a shutdown stops them in the reverse order. */
const start = async (shutdownTimeoutMs = 10_000) => {
  const db = await openTestDatabase();
  const fleet = await startServices(
    [
      { definition: writer, port: 0 },
      { definition: reader, port: 0 },
    ],
    {
      db,
      transport: new InProcessTransport(),
      logger: createLogger({ level: 'silent' }),
      vendor: 'fieldcast',
      bodyLimit: '1mb',
      host: '127.0.0.1',
      shutdownTimeoutMs,
    },
  );
  return { db, fleet };
};

/** An event written as a command does it (no relay of its own, no notification on PGlite): the relay finds it by its poll or at the stop. */
const write = (db: Awaited<ReturnType<typeof openTestDatabase>>, subject: string) =>
  db.knex.transaction((trx) =>
    outboxWriter(db, 'writer').add(trx, TOPIC, {
      area: 'writer',
      resource: 'thing',
      action: 'created',
      subject,
      data: { account: null, resource: { subject } },
    }),
  );

beforeEach(() => {
  received.length = 0;
  failing = false;
});

it('a shutdown delivers what an outbox still holds to the consumers of the process before they stop', async () => {
  const { db, fleet } = await start();
  await write(db, 'a9a6c4ce-3c58-4a8b-9f3c-6a4f6f0d2c11');
  await fleet.stop();
  expect(received).toEqual(['a9a6c4ce-3c58-4a8b-9f3c-6a4f6f0d2c11']);
});

it('a consumer that cannot take a message holds the shutdown no longer than its timeout', async () => {
  const { db, fleet } = await start(300);
  failing = true;
  await write(db, '0d3f0e0a-7b8c-4b57-9d59-1f2e3d4c5b6a');
  const started = Date.now();
  await fleet.stop();
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(received).toEqual([]);
});
