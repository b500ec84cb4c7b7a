import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessTransport, type IncomingMessage } from '@fieldcast/bus';
import { openDatabase, outboxWriter, type Database, type Outbox } from '@fieldcast/db';
import { Api, createLogger } from '@fieldcast/kit';
import { defineService } from '../src/needs.js';
import { migrateService, startServices, type RunningFleet } from '../src/services.js';
import { databaseTemplate, eventually } from '../src/testing.js';

/*
 * An embedded process killed outright loses what its in-process bus held, so an outbox row stays
 * unsent until every consumer group of the process reading its topic has consumed it, and the next
 * process on the database publishes it again
 * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
 */
const TOPIC = 'fieldcast.writer.things';
const writer = defineService({
  area: 'writer',
  port: 1,
  title: 'Writer',
  description: 'writes events to its outbox',
  needs: { database: { migrations: [] }, outbox: { topics: [TOPIC] } },
  api: () => new Api(),
});

/** A reader whose handler waits for `gate` before it takes a message; what it took is in `received`. */
function reader(gate: Promise<void>) {
  const received: string[] = [];
  let entered = 0;
  const definition = defineService({
    area: 'reader',
    port: 2,
    title: 'Reader',
    description: 'consumes the writer’s events',
    // a schema of its own, as the consuming areas have: migrating it waits for the writer's relay,
    // so what that relay publishes at start is published before this group subscribes
    needs: { database: { migrations: [] } },
    consumers: () => [
      {
        group: 'reader',
        topics: /^fieldcast\.writer\./,
        handle: async (message: IncomingMessage) => {
          entered += 1;
          await gate;
          received.push((JSON.parse(message.value) as { subject: string }).subject);
        },
      },
    ],
    api: () => new Api(),
  });
  return { definition, received, entered: () => entered };
}

/** One process of the embedded fleet on the data dir: its database, its bus and its areas. */
async function start(dataDir: string, consumer: ReturnType<typeof reader>): Promise<{ db: Database; fleet: RunningFleet }> {
  // the first process makes the database from the suite's migrated one; the next opens what it left
  const made = existsSync(join(dataDir, 'PG_VERSION'));
  const db = await openDatabase({ dataDir, sharedBuffersMb: 16, ...(made ? {} : { from: await databaseTemplate() }) });
  const fleet = await startServices(
    [
      { definition: writer, port: 0 },
      { definition: consumer.definition, port: 0 },
    ],
    {
      db,
      transport: new InProcessTransport(),
      logger: createLogger({ level: 'silent' }),
      vendor: 'fieldcast',
      bodyLimit: '1mb',
      host: '127.0.0.1',
      shutdownTimeoutMs: 10_000,
      background: false,
    },
  );
  return { db, fleet };
}

/**
 * The process killed outright, once its relays have done what they would (marked what they may):
 * no stop, no hand-over. What it committed stays in the data dir; its bus and its relays' memory are gone.
 */
async function killed({ db, fleet }: { db: Database; fleet: RunningFleet }): Promise<void> {
  for (const s of fleet.services) {
    await (s.deps.outbox as Outbox | undefined)?.flush();
    s.server.close();
  }
  await db.close();
}

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-crash-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

it('a row the bus held when its process was killed reaches the consumer once, from the next process on the database', async () => {
  const subject = '7e0b5c1a-2f4d-4c3b-8a9e-0d1c2b3a4f5e';
  const held = reader(new Promise<void>(() => undefined));
  const first = await start(dataDir, held);
  const outbox = first.fleet.services.find((s) => s.area === 'writer')!.deps.outbox as Outbox;
  await first.db.knex.transaction((trx) =>
    outbox.add(trx, TOPIC, { area: 'writer', resource: 'thing', action: 'created', subject, data: { account: null, resource: {} } }),
  );
  await eventually(() => expect(held.entered()).toBe(1));
  await killed(first);

  const taking = reader(Promise.resolve());
  const next = await start(dataDir, taking);
  try {
    await eventually(() => expect(taking.received).toEqual([subject]));
    // consumed now: marked sent, so a third process would not publish it again
    const unsent = async () =>
      Number((await next.db.knex.withSchema('writer').table('outbox').whereNull('sent_at').count({ n: '*' }))[0]!.n);
    await eventually(async () => expect(await unsent()).toBe(0));
  } finally {
    await next.fleet.stop();
  }
  expect(taking.received).toEqual([subject]);
}, 60_000);

it('a row written while the fleet was stopped, published at a start killed before its consumer took it, is published again at the next', async () => {
  const subject = '3c9d2e1f-6a5b-4e8d-9c7b-1a2b3c4d5e6f';
  // as a command writes with the fleet stopped (`fieldcast archive ingest-reports`): the next start publishes it
  const db = await openDatabase({ dataDir, sharedBuffersMb: 16, from: await databaseTemplate() });
  await migrateService(db, writer);
  await db.knex.transaction((trx) =>
    outboxWriter(db, 'writer').add(trx, TOPIC, {
      area: 'writer',
      resource: 'thing',
      action: 'created',
      subject,
      data: { account: null, resource: {} },
    }),
  );
  await db.close();
  // The writer's relay publishes it as the writer starts, before the reader's group has joined.
  const held = reader(new Promise<void>(() => undefined));
  const first = await start(dataDir, held);
  await eventually(() => expect(held.entered()).toBe(1));
  await killed(first);

  const taking = reader(Promise.resolve());
  const next = await start(dataDir, taking);
  try {
    await eventually(() => expect(taking.received).toEqual([subject]));
  } finally {
    await next.fleet.stop();
  }
}, 60_000);
