import { InProcessTransport, type CloudEvent, type IncomingMessage } from '@fieldcast/bus';
import { migrateSchema, openDatabase, Outbox, outboxMigration, type Database } from '../src/index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const SCHEMA = 'relaytest';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ dataDir: null });
  await migrateSchema(db.knex, SCHEMA, [
    outboxMigration(),
    { name: '001_things', up: (k, s) => k.schema.withSchema(s).createTable('things', (t) => t.text('id').primary()) },
  ]);
});
afterAll(() => db.close());
beforeEach(() => db.knex.raw(`truncate ${SCHEMA}.outbox, ${SCHEMA}.things`));

function setup(options: { safetyPollMs?: number; maxBackoffMs?: number } = {}) {
  const transport = new InProcessTransport();
  const received: CloudEvent[] = [];
  const outbox = new Outbox({ db, schema: SCHEMA, transport, logger: silent, safetyPollMs: options.safetyPollMs ?? 3_600_000, maxBackoffMs: options.maxBackoffMs ?? 200 });
  const consume = transport.subscribe('test', /^t\./, async (m: IncomingMessage) => {
    received.push(JSON.parse(m.value));
  });
  return { transport, outbox, received, consume };
}

async function write(outbox: Outbox, subject: string, action: string) {
  await db.knex.transaction(async (trx) => {
    await trx.withSchema(SCHEMA).table('things').insert({ id: `${subject}-${action}` });
    await outbox.add(trx, 't.things', { area: 'test', resource: 'thing', action, subject, data: { account: null, resource: { subject, action } } });
  });
}

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('outbox relay (DESIGN.md section 5)', () => {
  it('publishes committed rows in commit order and marks them sent', async () => {
    const { outbox, received, consume } = setup();
    await consume;
    await outbox.start();
    for (let i = 0; i < 20; i++) await write(outbox, `r${i % 3}`, `a${i}`);
    await until(() => received.length === 20);
    expect(received.map((e) => e.type)).toEqual(Array.from({ length: 20 }, (_, i) => `fieldcast.thing.a${i}`));
    expect(await outbox.pending()).toBe(0);
    await outbox.stop();
  });

  it('wakes on commit without polling: the safety poll is an hour, yet delivery is immediate', async () => {
    const { outbox, received, consume } = setup({ safetyPollMs: 3_600_000 });
    await consume;
    await outbox.start();
    await write(outbox, 'x', 'created');
    await until(() => received.length === 1, 1000);
    await outbox.stop();
  });

  it('a rolled-back transaction publishes nothing', async () => {
    const { outbox, received, consume } = setup();
    await consume;
    await outbox.start();
    await expect(
      db.knex.transaction(async (trx) => {
        await outbox.add(trx, 't.things', { area: 'test', resource: 'thing', action: 'created', subject: 'y', data: { account: null, resource: {} } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await write(outbox, 'z', 'created');
    await until(() => received.length === 1);
    expect(received[0]!.subject).toBe('z');
    await outbox.stop();
  });

  it('while the transport is down rows stay pending and are retried with backoff; nothing is lost or reordered', async () => {
    const { transport, outbox, received, consume } = setup({ maxBackoffMs: 100 });
    await consume;
    transport.down = true;
    await outbox.start();
    for (let i = 0; i < 5; i++) await write(outbox, 'r', `a${i}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toHaveLength(0);
    expect(await outbox.pending()).toBe(5);
    transport.down = false;
    await until(() => received.length === 5);
    expect(received.map((e) => e.type)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4'].map((a) => `fieldcast.thing.${a}`));
    expect(await outbox.pending()).toBe(0);
    await outbox.stop();
  });

  it('stop() drains what is pending (graceful shutdown)', async () => {
    const { outbox, received, consume } = setup();
    await consume;
    await outbox.start();
    await write(outbox, 'q', 'created');
    await outbox.stop();
    expect(received).toHaveLength(1);
  });
});
