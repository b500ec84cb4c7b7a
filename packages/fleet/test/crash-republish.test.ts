import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { agricultureService } from '@fieldcast/agriculture';
import { alertsService } from '@fieldcast/alerts';
import { InProcessTransport } from '@fieldcast/bus';
import { openDatabase, type Database, type Outbox } from '@fieldcast/db';
import { eventsService } from '@fieldcast/events';
import { createLogger } from '@fieldcast/kit';
import { IdentityStore, startServices, type RunningFleet, type Service } from '@fieldcast/runtime';
import { basicAuthHeader, databaseTemplate, eventually } from '@fieldcast/runtime/testing';
import { SyntheticSource } from '@fieldcast/weather';

/*
 * An embedded fleet killed outright (SIGKILL, a crash) loses what its in-process bus held, so an
 * outbox row stays unsent until every consumer group of the process reading its topic has consumed
 * it, and the next start publishes it again; the consumers that had taken it take it again to no
 * effect (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
 */

/** The area with the consumer of `group` holding each message until `gate` resolves. */
function holding(service: Service, group: string, gate: Promise<void>, entered: () => void): Service {
  return {
    ...service,
    consumers: (deps) =>
      service.consumers!(deps).map((c) =>
        c.group === group
          ? {
              ...c,
              handle: async (message) => {
                entered();
                await gate;
                return c.handle(message);
              },
            }
          : c,
      ),
  } as Service;
}

/** One process of the embedded fleet on the data dir. */
async function start(dataDir: string, alerts: Service): Promise<{ db: Database; fleet: RunningFleet }> {
  const made = existsSync(join(dataDir, 'PG_VERSION'));
  const db = await openDatabase({ dataDir, sharedBuffersMb: 16, ...(made ? {} : { from: await databaseTemplate() }) });
  const fleet = await startServices(
    [agricultureService, eventsService, alerts].map((definition) => ({ definition, port: 0 })),
    {
      db,
      transport: new InProcessTransport(),
      logger: createLogger({ level: 'silent' }),
      weather: new SyntheticSource(),
      vendor: 'fieldcast',
      bodyLimit: '1mb',
      host: '127.0.0.1',
      shutdownTimeoutMs: 10_000,
      background: false,
      computeThreads: 1,
    },
  );
  return { db, fleet };
}

/** Killed outright once its relays have done what they would: no stop, no hand-over; the data dir stays. */
async function killed({ db, fleet }: { db: Database; fleet: RunningFleet }): Promise<void> {
  for (const s of fleet.services) {
    await (s.deps.outbox as Outbox | undefined)?.flush();
    s.server.close();
  }
  await db.close();
}

const app = (fleet: RunningFleet, area: string) => fleet.services.find((s) => s.area === area)!.app;

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-crash-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('a field created just before the fleet is killed reaches the alerts area’s copy at the next start, and the events feed shows it once', async () => {
  let entered = 0;
  const first = await start(
    dataDir,
    holding(alertsService, 'alerts-targets', new Promise<void>(() => undefined), () => (entered += 1)),
  );
  const { account, applicationKey } = await new IdentityStore(first.db.knex).createAccount({ name: 'Crash' });
  const auth = basicAuthHeader(account.id, applicationKey);
  const square = [
    [-93.5, 42],
    [-93.49, 42],
    [-93.49, 42.01],
    [-93.5, 42.01],
    [-93.5, 42],
  ];
  const created = await request(app(first.fleet, 'agriculture'))
    .post('/fields')
    .set('Authorization', auth)
    .send({ description: 'North 40', type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [square] }] });
  expect(created.status).toBe(201);
  const fieldId = (created.body as { id: string }).id;
  const feed = async (fleet: RunningFleet) => {
    const res = await request(app(fleet, 'events')).get('/events?limit=100').set('Authorization', auth);
    expect(res.status).toBe(200);
    return (res.body as { app: string }[]).filter((e) => e.app === 'agriculture');
  };
  // the events area has taken the field's event; the alerts area's consumer holds it
  await eventually(async () => expect(await feed(first.fleet)).toHaveLength(1), 30_000);
  await eventually(() => expect(entered).toBe(1));
  await killed(first);

  const next = await start(dataDir, alertsService);
  try {
    await eventually(async () => {
      const copy: { id: string }[] = await next.db.knex.withSchema('alerts').table('targets').where({ id: fieldId }).select('id');
      expect(copy).toHaveLength(1);
    }, 30_000);
    // published again to the events area too, which had it: still one event
    const unsent = async () =>
      Number((await next.db.knex.withSchema('agriculture').table('outbox').whereNull('sent_at').count({ n: '*' }))[0]!.n);
    await eventually(async () => expect(await unsent()).toBe(0));
    expect(await feed(next.fleet)).toHaveLength(1);
  } finally {
    await next.fleet.stop();
  }
}, 180_000);
