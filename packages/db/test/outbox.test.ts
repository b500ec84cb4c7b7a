import { InProcessTransport, type CloudEvent, type IncomingMessage } from '@fieldcast/bus';
import { migrateSchema, openDatabase, Outbox, outboxMigration, outboxWriter, type Database, type OutboxWriter } from '../src/index.js';

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

function setup(options: { safetyPollMs?: number; maxBackoffMs?: number; retainSentMs?: number; pruneIntervalMs?: number } = {}) {
  const transport = new InProcessTransport();
  const received: CloudEvent[] = [];
  const outbox = new Outbox({
    db,
    schema: SCHEMA,
    transport,
    logger: silent,
    safetyPollMs: options.safetyPollMs ?? 3_600_000,
    maxBackoffMs: options.maxBackoffMs ?? 200,
    ...(options.retainSentMs === undefined ? {} : { retainSentMs: options.retainSentMs }),
    ...(options.pruneIntervalMs === undefined ? {} : { pruneIntervalMs: options.pruneIntervalMs }),
  });
  const consume = transport.subscribe('test', /^t\./, async (m: IncomingMessage) => {
    received.push(JSON.parse(m.value));
  });
  return { transport, outbox, received, consume };
}

async function write(outbox: OutboxWriter, subject: string, action: string) {
  await db.knex.transaction(async (trx) => {
    await trx
      .withSchema(SCHEMA)
      .table('things')
      .insert({ id: `${subject}-${action}` });
    await outbox.add(trx, 't.things', {
      area: 'test',
      resource: 'thing',
      action,
      subject,
      data: { account: null, resource: { subject, action } },
    });
  });
}

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('outbox relay (docs/architecture.md §5)', () => {
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
        await outbox.add(trx, 't.things', {
          area: 'test',
          resource: 'thing',
          action: 'created',
          subject: 'y',
          data: { account: null, resource: {} },
        });
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

  it('publishes what a writer without a relay (a command of the fleet) added, at start and, while running, by its poll', async () => {
    const { outbox, received, consume } = setup({ safetyPollMs: 100 });
    await consume;
    const command = outboxWriter(db, SCHEMA);
    await write(command, 'c', 'a0');
    await write(outbox, 'c', 'a1');
    expect(await outbox.pending()).toBe(2);
    await outbox.start();
    await until(() => received.length === 2);
    await write(command, 'c', 'a2');
    await until(() => received.length === 3);
    expect(received.map((e) => e.type)).toEqual(['a0', 'a1', 'a2'].map((a) => `fieldcast.thing.${a}`));
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

  const rowsLeft = async () =>
    (await db.knex.withSchema(SCHEMA).table('outbox').orderBy('seq').select('key', 'sent_at')) as { key: string; sent_at: Date | null }[];

  it('prunes sent rows past the retention and never an unsent one', async () => {
    const { outbox, received, consume } = setup({ retainSentMs: 0, pruneIntervalMs: 3_600_000 });
    await consume;
    await outbox.start();
    for (const k of ['a', 'b', 'c']) await write(outbox, k, 'created');
    await until(() => received.length === 3);
    await outbox.stop();
    // Written while no relay runs: pending, so they must survive any pruning.
    for (const k of ['d', 'e']) await write(outbox, k, 'created');
    expect(await outbox.prune()).toBe(3);
    expect(await rowsLeft()).toEqual([
      { key: 'd', sent_at: null },
      { key: 'e', sent_at: null },
    ]);
    expect(await outbox.pending()).toBe(2);
  });

  it('keeps sent rows younger than the retention', async () => {
    const { outbox, received, consume } = setup({ retainSentMs: 3_600_000 });
    await consume;
    await outbox.start();
    await write(outbox, 'young', 'created');
    await until(() => received.length === 1);
    await outbox.stop();
    expect(await outbox.prune()).toBe(0);
    expect((await rowsLeft()).map((r) => r.key)).toEqual(['young']);
  });

  it('prunes in batches of the oldest rows until none is old enough, stopping at an unsent one', async () => {
    const { outbox } = setup({ retainSentMs: 0 });
    // 12,000 rows, all sent an hour ago except one in the middle: batches of 5,000 by seq.
    await db.knex.raw(
      `insert into ${SCHEMA}.outbox (id, topic, key, event, sent_at)
       select gen_random_uuid(), 't.things', 'k' || i, '{}'::jsonb, case when i = 7000 then null else now() - interval '1 hour' end
       from generate_series(1, 12000) i`,
    );
    // The first batch is wholly old enough; the second holds the unsent row, so the pass stops there.
    expect(await outbox.prune()).toBe(5000 + 4999);
    const left = await rowsLeft();
    expect(left).toHaveLength(2001);
    expect(left[0]).toEqual({ key: 'k7000', sent_at: null });
  });

  it('the relay prunes on its own after publishing', async () => {
    const { outbox, received, consume } = setup({ retainSentMs: 0, pruneIntervalMs: 0 });
    await consume;
    await outbox.start();
    await write(outbox, 'p', 'created');
    await until(() => received.length === 1);
    await write(outbox, 'q', 'created'); // the next pass prunes what the previous one sent
    await until(() => received.length === 2);
    const deadline = Date.now() + 5000;
    while ((await rowsLeft()).some((r) => r.key === 'p') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect((await rowsLeft()).map((r) => r.key)).not.toContain('p');
    await outbox.stop();
  });
});

/*
 * The in-process bus holds what it was sent only as long as the process, so there a row is marked
 * sent once every consumer group of the process that reads its topic has consumed its message, and
 * a row the bus still holds is not published again by the same relay
 * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
 */
describe('outbox relay on the in-process bus', () => {
  /** A relay on its own bus, whose one consumer takes a message only once `open` is called. */
  function held(options: { safetyPollMs?: number } = {}) {
    const transport = new InProcessTransport();
    transport.startTrimming();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const received: string[] = [];
    let attempts = 0;
    const consume = transport.subscribe('test', /^t\./, async (m: IncomingMessage) => {
      attempts += 1;
      await gate;
      received.push((JSON.parse(m.value) as CloudEvent).type);
    });
    const outbox = new Outbox({ db, schema: SCHEMA, transport, logger: silent, safetyPollMs: options.safetyPollMs ?? 3_600_000 });
    return { transport, outbox, received, consume, open, attempts: () => attempts };
  }

  it('marks a row sent only once it is consumed, and while the bus holds it publishes it no more', async () => {
    const { transport, outbox, received, consume, open, attempts } = held({ safetyPollMs: 20 });
    await consume;
    await outbox.start();
    await write(outbox, 'h', 'created');
    await until(() => attempts() === 1);
    // many safety polls later: still one message held, one row unsent
    await new Promise((r) => setTimeout(r, 200));
    expect([transport.held('t.things'), await outbox.pending()]).toEqual([1, 1]);
    open();
    await until(() => received.length === 1);
    await outbox.flush();
    expect(await outbox.pending()).toBe(0);
    expect([received, attempts()]).toEqual([['fieldcast.thing.created'], 1]);
    await outbox.stop();
  });

  it('a row the bus held when its process ended is published again by the relay of the next one', async () => {
    // the first process: its consumer never takes the message, and the process ends without a stop
    const first = held();
    await first.consume;
    await first.outbox.start();
    await write(first.outbox, 'lost', 'created');
    await until(() => first.attempts() === 1);
    // the next process on the same database
    const next = held();
    next.open();
    await next.consume;
    await next.outbox.start();
    await until(() => next.received.length === 1);
    await next.outbox.flush();
    expect(await next.outbox.pending()).toBe(0);
    expect(next.received).toEqual(['fieldcast.thing.created']);
    await next.outbox.stop();
  });

  it('marks what its consumers took in a few statements, not one a message', async () => {
    const { transport, outbox, received, consume, open } = held();
    await consume;
    await outbox.start();
    await db.knex.transaction(async (trx) => {
      for (let i = 0; i < 50; i++)
        await outbox.add(trx, 't.things', {
          area: 'test',
          resource: 'thing',
          action: `a${i}`,
          subject: 's',
          data: { account: null, resource: {} },
        });
    });
    await until(() => transport.held('t.things') === 50);
    let marks = 0;
    const count = (q: { sql: string }) => {
      if (/^update .*outbox.* set "?sent_at/i.test(q.sql)) marks += 1;
    };
    db.knex.on('query', count);
    try {
      open();
      await until(() => received.length === 50);
      await outbox.flush();
      expect(await outbox.pending()).toBe(0);
    } finally {
      db.knex.off('query', count);
    }
    expect(marks).toBeGreaterThan(0);
    expect(marks).toBeLessThanOrEqual(5);
    await outbox.stop();
  });
});
