import { createConnection } from 'node:net';
import { openDatabase, type Database } from '@fieldcast/db';
import { eventually } from '@fieldcast/runtime/testing';
import { broker, fieldBody, newAccount, requireEnv, serveArea, type ServedArea } from './helpers.js';

/**
 * A broker outage is never an API outage (docs/architecture.md §5, decision 0280), tried the way
 * an operator's fleet meets it: two agriculture replicas and the events service as processes
 * (`fieldcast serve`) on PostgreSQL and Kafka, writes flowing all along. One replica is killed
 * (-9), the broker is stopped for 30 s, the events service is restarted and a third agriculture
 * replica started while it is away. Then: no acknowledged write lost, every event of one exactly
 * once in the feed, /readyz 200 on every live replica throughout the outage, the replica started
 * during the outage serving, and delivery resumed within 10 s of the broker's return.
 */
const OUTAGE_MS = 30_000;
const ACTIONS = ['created', 'updated', 'deleted'] as const;
type Action = (typeof ACTIONS)[number];

/** A field's life: created, then replaced, then deleted; when each step was acknowledged, and the step whose outcome is unknown (its replica was killed under it), after which the field is left alone. */
interface Life {
  id: string;
  acknowledged: Map<Action, number>;
  unknown?: Action;
}

const children: ServedArea[] = [];
let db: Database;
afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await db?.close();
});

async function serve(area: string, ready = true): Promise<ServedArea> {
  const served = await serveArea(area, { ready });
  children.push(served);
  return served;
}

/** Whether the broker's port takes connections. */
function brokerAnswers(): Promise<boolean> {
  const [host, port] = requireEnv().brokers[0]!.split(':');
  const socket = createConnection({ host, port: Number(port) });
  return new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
    socket.setTimeout(500, () => resolve(false));
  }).finally(() => socket.destroy());
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('survives a killed replica, a 30 s broker outage and a restarted events service without losing or repeating an event', async () => {
  db = await openDatabase({ url: requireEnv().url });
  const owner = await newAccount('chaos');
  const [a, b, events] = await Promise.all([serve('agriculture'), serve('agriculture'), serve('events')]);
  const agriculture = [a, b];
  let eventsService = events;

  // The writer: round robin over the live agriculture replicas; each field goes created ->
  // replaced -> deleted over three turns, so each of its events can be told apart.
  const lives: Life[] = [];
  const servedBy = new Map<string, number>();
  let requests = 0;
  let serverErrors = 0;
  let writing = true;
  const write = async () => {
    let turn = 0;
    while (writing) {
      const live = agriculture.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
      const replica = live[turn++ % live.length]!;
      const open = lives.filter((l) => !l.acknowledged.has('deleted') && !l.unknown);
      const life = open.length > 3 ? open[0]! : undefined;
      const action: Action = !life ? 'created' : life.acknowledged.has('updated') ? 'deleted' : 'updated';
      const path = life ? `/fields/${life.id}` : '/fields';
      const method = { created: 'POST', updated: 'PUT', deleted: 'DELETE' }[action];
      requests += 1;
      const response = await fetch(`${replica.url}${path}`, {
        method,
        headers: { Authorization: owner.auth, 'Content-Type': 'application/json' },
        ...(action === 'deleted' ? {} : { body: JSON.stringify(fieldBody(`chaos ${action}`)) }),
        signal: AbortSignal.timeout(5000),
      }).catch(() => undefined);
      if (response && response.status >= 500) serverErrors += 1;
      if (response?.ok) {
        const target = life ?? { id: ((await response.json()) as { id: string }).id, acknowledged: new Map() };
        if (!life) lives.push(target);
        target.acknowledged.set(action, Date.now());
        servedBy.set(replica.url, (servedBy.get(replica.url) ?? 0) + 1);
      } else {
        // not acknowledged (the replica was killed under it): the field is left alone from here
        if (life) life.unknown = action;
        await response?.body?.cancel();
      }
      await sleep(50);
    }
  };

  // /readyz of every live replica, every 250 ms while the broker is away
  const stopping = new Set<ServedArea>();
  const readiness = { probes: 0, failures: [] as string[] };
  let probing = false;
  const probe = async () => {
    while (probing) {
      const live = [...agriculture, eventsService].filter(
        (r) => r.child.exitCode === null && r.child.signalCode === null && !stopping.has(r),
      );
      await Promise.all(
        live.map(async (r) => {
          const status = await fetch(`${r.url}/readyz`, { signal: AbortSignal.timeout(2000) })
            .then((res) => res.status)
            .catch((err: Error) => err.message);
          readiness.probes += 1;
          // a replica told to stop meanwhile is no longer live: it fails readiness on purpose
          if (status !== 200 && !stopping.has(r)) readiness.failures.push(`${r.url}: ${status}`);
        }),
      );
      await sleep(250);
    }
  };

  const writer = write();
  await sleep(3000);
  b.child.kill('SIGKILL');
  await b.exited;
  const killedAnswers = await fetch(`${b.url}/healthz`).then(
    () => true,
    () => false,
  );
  await sleep(2000);

  await broker('stop');
  const outageStarted = Date.now();
  probing = true;
  const prober = probe();
  // The events service restarted during the outage: the old one cannot leave its group, the new
  // one must start without the broker.
  stopping.add(eventsService);
  const stopAsked = Date.now();
  eventsService.child.kill('SIGTERM');
  const eventsExit = await Promise.race([eventsService.exited, sleep(15_000).then(() => 'still running')]);
  expect(eventsExit).toBe(0);
  const eventsStopSeconds = (Date.now() - stopAsked) / 1000;
  eventsService = await serve('events');
  // A replica scaled up during the outage starts and serves.
  const c = await serve('agriculture');
  agriculture.push(c);
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - outageStarted)));
  const acknowledgedDuringOutage = lives.flatMap((l) => [...l.acknowledged.values()].filter((t) => t >= outageStarted)).length;

  const starting = broker('start');
  await eventually(async () => expect(await brokerAnswers()).toBe(true), 60_000, 100);
  const brokerBack = Date.now();
  probing = false;
  await prober;
  await starting;

  // Delivery resumed: the first event of a write acknowledged during the outage is in the feed.
  const feedOf = async () =>
    (await db.knex.withSchema('events').table('events').where({ owner_account: owner.id }).select('origin_id', 'message')) as {
      origin_id: string;
      message: string;
    }[];
  const outageIds = new Set(
    lives.filter((l) => [...l.acknowledged.values()].some((t) => t >= outageStarted && t < brokerBack)).map((l) => l.id),
  );
  await eventually(async () => expect((await feedOf()).some((e) => outageIds.has(e.origin_id))).toBe(true), 30_000, 100);
  const resumedAfter = Date.now() - brokerBack;

  await sleep(3000);
  writing = false;
  await writer;
  const expected = () => lives.flatMap((l) => [...l.acknowledged.keys()].map((x) => `${l.id} Field {} was ${x}`));
  await eventually(
    async () => {
      const delivered = new Set((await feedOf()).map((e) => `${e.origin_id} ${e.message}`));
      expect(expected().filter((e) => !delivered.has(e))).toEqual([]);
    },
    30_000,
    250,
  );
  const allDeliveredAfter = Date.now() - brokerBack;
  await sleep(2000);

  // Every acknowledged write is in agriculture's database, seen through a live replica.
  let lost = 0;
  for (const life of lives) {
    if (life.unknown === 'deleted') continue;
    const res = await fetch(`${a.url}/fields/${life.id}`, { headers: { Authorization: owner.auth } });
    const body = res.ok ? ((await res.json()) as { description: string }) : undefined;
    const intact = life.acknowledged.has('deleted')
      ? res.status === 404
      : body !== undefined && (!life.acknowledged.has('updated') || body.description === 'chaos updated');
    if (!intact) lost += 1;
  }
  // Every event of the owner's fields exactly once: an acknowledged write's once, any other at most once.
  const feed = (await feedOf()).map((e) => `${e.origin_id} ${e.message}`);
  const counts = new Map<string, number>();
  for (const e of feed) counts.set(e, (counts.get(e) ?? 0) + 1);
  const missing = expected().filter((e) => !counts.has(e));
  const repeated = [...counts].filter(([, n]) => n > 1).map(([e]) => e);

  const figures = {
    requests,
    killedReplicaAnswered: killedAnswers,
    eventsStopSecondsInOutage: eventsStopSeconds,
    acknowledged: Object.fromEntries(ACTIONS.map((x) => [x, lives.filter((l) => l.acknowledged.has(x)).length])),
    acknowledgedDuringOutage,
    serverErrors,
    lost,
    events: feed.length,
    missing: missing.length,
    repeated: repeated.length,
    readyzProbesDuringOutage: readiness.probes,
    readyzFailures: readiness.failures.length,
    servedByReplicaStartedInOutage: servedBy.get(c.url) ?? 0,
    deliveryResumedSeconds: resumedAfter / 1000,
    allDeliveredSeconds: allDeliveredAfter / 1000,
  };
  console.log(`chaos: ${JSON.stringify(figures, null, 2)}`);
  expect({ lost, missing, repeated, readinessFailures: readiness.failures, serverErrors }).toEqual({
    lost: 0,
    missing: [],
    repeated: [],
    readinessFailures: [],
    serverErrors: 0,
  });
  expect(killedAnswers).toBe(false);
  expect(acknowledgedDuringOutage).toBeGreaterThan(0);
  expect(figures.servedByReplicaStartedInOutage).toBeGreaterThan(0);
  expect(resumedAfter).toBeLessThanOrEqual(10_000);

  for (const r of [a, c, eventsService]) r.child.kill('SIGTERM');
  expect(await Promise.all([a, c, eventsService].map((r) => r.exited))).toEqual([0, 0, 0]);
}, 150_000);
