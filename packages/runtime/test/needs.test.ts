import request from 'supertest';
import { z } from 'zod';
import { resourceEvent, type IncomingMessage, type InProcessTransport } from '@fieldcast/bus';
import { Api } from '@fieldcast/kit';
import type { GridSource } from '@fieldcast/weather';
import { serveDistributed } from '../src/distributed.js';
import { defineService } from '../src/needs.js';
import { eventually, startTestFleet, type TestFleet } from '../src/testing.js';

/** Each probe answers GET /deps with the names of the dependencies it was handed. */
const depsRoute = (deps: object) =>
  new Api().op({
    method: 'get',
    path: '/deps',
    summary: 'the dependencies this service was handed',
    auth: false,
    response: { status: 200, description: 'their names', schema: z.array(z.string()) },
    handle: () => Object.keys(deps).sort(),
  });

const received: IncomingMessage[] = [];

const bare = defineService({
  area: 'bare',
  port: 1,
  title: 'Bare',
  description: 'declares nothing',
  needs: {},
  api: (deps) => depsRoute(deps),
});

const publisher = defineService({
  area: 'publisher',
  port: 1,
  title: 'Publisher',
  description: 'a schema, an outbox and weather',
  needs: { database: { migrations: [] }, outbox: { topics: ['fieldcast.publisher.things'] }, weather: true },
  api: (deps) => depsRoute(deps),
});

const listener = defineService({
  area: 'listener',
  port: 1,
  title: 'Listener',
  description: 'a schema and a consumer',
  needs: { database: { migrations: [] } },
  api(deps) {
    // @ts-expect-error a service that did not declare weather cannot read it
    void deps.weather;
    // @ts-expect-error nor an outbox
    void deps.outbox;
    return depsRoute(deps);
  },
  consumers: () => [
    {
      group: 'listener',
      topics: /^fieldcast\.publisher\./,
      handle: async (message) => {
        received.push(message);
      },
    },
  ],
});

const computer = defineService({
  area: 'computer',
  port: 1,
  title: 'Computer',
  description: 'compute threads without weather',
  needs: { compute: true },
  api(deps) {
    // @ts-expect-error threads come without weather
    void deps.weather;
    return depsRoute(deps);
  },
});

/** Stands in for a weather source: these services only report what they were handed. */
const weather = { label: 'given' } as unknown as GridSource;

const HTTP = ['bodyLimit', 'identity', 'logger', 'metrics', 'now', 'ready', 'vendor'];

describe('a test fleet of services that declare different needs', () => {
  let fleet: TestFleet;
  beforeAll(async () => {
    fleet = await startTestFleet([bare, publisher, listener, computer], { weather });
  });
  afterAll(() => fleet.close());

  it('hands each service only the dependencies it declared', async () => {
    expect((await request(fleet.app('bare')).get('/deps')).body).toEqual(HTTP);
    // weather comes with the threads its heavy computation may use (docs/decisions/0051-heavy-work-in-worker-threads.md)
    expect((await request(fleet.app('publisher')).get('/deps')).body).toEqual(
      // and the translation of the weather's GridRequestError for the error table (weather.ts)
      [...HTTP, 'computeThreads', 'db', 'errorTranslations', 'outbox', 'reports', 'weather'].sort(),
    );
    expect((await request(fleet.app('listener')).get('/deps')).body).toEqual([...HTTP, 'db', 'reports'].sort());
    expect((await request(fleet.app('computer')).get('/deps')).body).toEqual([...HTTP, 'computeThreads'].sort());
  });

  it('migrates a schema only for a service that declared a database or an outbox', async () => {
    const schemas: { nspname: string }[] = (
      await fleet.db.knex.raw(`select nspname from pg_namespace where nspname in ('bare', 'publisher', 'listener')`)
    ).rows;
    expect(schemas.map((s) => s.nspname).sort()).toEqual(['listener', 'publisher']);
  });

  it('is ready while the database answers; a service that publishes or consumes reports the broker, never fails on it', async () => {
    expect((await request(fleet.app('bare')).get('/readyz')).body).toEqual({ status: 'ready', checks: { database: true } });
    expect((await request(fleet.app('publisher')).get('/readyz')).body).toEqual({
      status: 'ready',
      checks: { database: true },
      reports: { transport: true },
    });
    const transport = fleet.transport as InProcessTransport;
    transport.down = true;
    try {
      for (const area of ['publisher', 'listener']) {
        const res = await request(fleet.app(area)).get('/readyz');
        expect([area, res.status, res.body]).toEqual([
          area,
          200,
          { status: 'ready', checks: { database: true }, reports: { transport: false } },
        ]);
      }
    } finally {
      transport.down = false;
    }
  });

  it('subscribes the consumers a service declared', async () => {
    const subject = '6f1c2a7e-8b9d-4e6f-a1b2-c3d4e5f60718';
    const event = resourceEvent({
      area: 'publisher',
      resource: 'thing',
      action: 'created',
      subject,
      data: { account: null, resource: {} },
    });
    await fleet.transport.publish([{ topic: 'fieldcast.publisher.things', key: subject, event }]);
    await eventually(() => expect(received.map((m) => m.topic)).toContain('fieldcast.publisher.things'));
  });
});

it('a fleet whose services declare no weather makes none; a given source goes to those that do', async () => {
  const fleet = await startTestFleet([bare]);
  try {
    expect(fleet.deps('bare').weather).toBeUndefined();
  } finally {
    await fleet.close();
  }
  const given = await startTestFleet([publisher], { weather });
  try {
    expect(given.deps('publisher').weather).toBe(weather);
  } finally {
    await given.close();
  }
});

it('a fleet given a clock makes its synthetic weather on that clock: coverage ends 16 days after its hour', async () => {
  const nowMs = Date.UTC(2031, 5, 15, 12, 34);
  const fleet = await startTestFleet([publisher], { now: () => new Date(nowMs) });
  try {
    expect(fleet.deps('publisher').weather!.coverage().endMs).toBe(Date.UTC(2031, 6, 1, 12));
  } finally {
    await fleet.close();
  }
});

it('distributed mode asks for Kafka only when the service publishes or consumes', async () => {
  await expect(serveDistributed(bare, {})).rejects.toThrow(/^Distributed mode needs DATABASE_URL \(/);
  await expect(serveDistributed(publisher, {})).rejects.toThrow(/^Distributed mode needs DATABASE_URL and KAFKA_BROKERS/);
  await expect(serveDistributed(listener, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })).rejects.toThrow(
    /^Distributed mode needs KAFKA_BROKERS/,
  );
});
