/**
 * Webhook deliveries (target in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/webhooks.bench.ts
 * Starts the events service in this process (PGlite and the in-process bus, as embedded) and a
 * local receiver that answers 204 at once, with one subscription that takes every event, and
 * measures in one run:
 * - the baseline: the same receiver POSTed the same CloudEvent bodies by a plain keep-alive
 *   http client in this process, 100 in flight (what the machine's loopback HTTP allows);
 * - the delivery path: BENCH_EVENTS pending deliveries (default 2,000, 500 resources) drained
 *   by the dispatcher's passes (claim with leases, send signed, record), events/s per process,
 *   target >= 500, and the ratio to the baseline;
 * - end to end, one embedded process doing it all: events stored by one writer as fast as it
 *   can (each commit also writes its outbox row), relayed, fanned out and delivered, events/s,
 *   against the same writer storing with no subscription (stored only) just before;
 * - the lag from each event's commit to its arrival at the receiver, p50 and p99, at a steady
 *   offered rate of BENCH_RATE events/s (default 50) for BENCH_SECONDS (default 5).
 */
import { createServer } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { eventsService } from '../services/events/src/definition.js';
import type { NewEvent } from '../services/events/src/domain/event.js';
import { EventStore } from '../services/events/src/store.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RESOURCES = 500;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function main(): Promise<void> {
  /** arrival time (performance.now) of each webhook-id, the first time it arrives */
  const arrived = new Map<string, number>();
  let waiting: { count: number; resolve: () => void } | null = null;
  const receiver = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.setHeader('WebHook-Allowed-Origin', String(req.headers['webhook-request-origin']));
      res.end();
      return;
    }
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (id && !arrived.has(id)) arrived.set(id, performance.now());
      if (waiting && arrived.size >= waiting.count) waiting.resolve();
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const until = (count: number) =>
    new Promise<void>((resolve) => {
      if (arrived.size >= count) return resolve();
      waiting = { count, resolve };
    });

  const fleet = await startTestFleet([eventsService], { webhookAllowPrivate: ['127.0.0.1'] });
  const server = fleet.app('events').listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const account = await fleet.account('bench');
    const store = new EventStore(fleet.db, fleet.deps('events').outbox!);
    const resources = Array.from({ length: RESOURCES }, () => crypto.randomUUID());
    let n = 0;
    const event = (): NewEvent => {
      const now = new Date();
      const origin = { namespace: 'bench/things', id: resources[n++ % RESOURCES]! };
      return {
        id: crypto.randomUUID(),
        sourceEventId: null,
        app: account.handle,
        appId: account.id,
        origin,
        namespace: 'bench/things/changed',
        status: 'inactive',
        message: 'Thing {} changed',
        creationTime: now,
        occurrenceTime: now,
        expirationTime: null,
        tagged: [origin],
        ownerAccount: account.id,
      };
    };
    const commits = new Map<string, number>();
    /** Stores `count` events one after another; returns events/s and when it started. */
    const storeEvents = async (count: number) => {
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const e = event();
        await store.insert(e);
        commits.set(e.id, performance.now());
      }
      return { t0, rate: count / ((performance.now() - t0) / 1000) };
    };

    // Baseline: plain keep-alive POSTs of a CloudEvent-sized body to the same receiver.
    const body = JSON.stringify({ specversion: '1.0', id: crypto.randomUUID(), data: event() });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    const baselineStart = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        while (sent < EVENTS) {
          sent++;
          await post();
        }
      }),
    );
    const baseline = EVENTS / ((performance.now() - baselineStart) / 1000);
    agent.destroy();
    console.log(`baseline: plain keep-alive POSTs to the receiver, 100 in flight: ${baseline.toFixed(0)}/s`);

    // The same writer with no subscription: what storing and relaying cost without webhooks.
    const storedOnly = await storeEvents(EVENTS);
    console.log(`stored only (one writer, no subscription): ${storedOnly.rate.toFixed(0)} events/s`);

    const created = await fetch(`${base}/subscriptions`, {
      method: 'POST',
      headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url, filter: { namespaces: ['bench/'] } }),
    });
    if (created.status !== 201) throw new Error(`subscribe: ${created.status} ${await created.text()}`);
    const subscription = ((await created.json()) as { id: string }).id;
    await fleet.runBackground('events', 'webhook-deliveries'); // the handshake

    // The delivery path: pending rows of 500 resources drained by the dispatcher's passes.
    await fleet.db.knex.raw(
      `insert into events.deliveries (id, subscription_id, event_id, order_key, type, body, status, next_attempt_at, created_at)
       select gen_random_uuid(), :subscription, gen_random_uuid(), (:resources::uuid[])[1 + i % ${RESOURCES}], 'fieldcast.bench.things.changed', :body, 'pending', now(), now()
       from generate_series(1, :count) i`,
      { subscription, body, count: EVENTS, resources: `{${resources.join(',')}}` },
    );
    const d0 = performance.now();
    while (arrived.size < EVENTS) await fleet.runBackground('events', 'webhook-deliveries');
    const drain = EVENTS / ((performance.now() - d0) / 1000);
    console.log(
      `delivery path, ${EVENTS.toLocaleString('en')} pending: ${drain.toFixed(0)} events/s per process (target >= 500) ${drain >= 500 ? 'PASS' : 'FAIL'}; ratio to baseline ${(drain / baseline).toFixed(3)}`,
    );

    // End to end at full speed, one embedded process.
    const before = arrived.size;
    const full = await storeEvents(EVENTS);
    await until(before + EVENTS);
    const endToEnd = EVENTS / ((Math.max(...arrived.values()) - full.t0) / 1000);
    console.log(
      `end to end, one embedded process: stored ${full.rate.toFixed(0)} events/s, delivered ${endToEnd.toFixed(0)} events/s; ratio to stored only ${(endToEnd / storedOnly.rate).toFixed(3)}`,
    );

    // Lag at a steady offered rate.
    const steady = RATE * SECONDS;
    const already = arrived.size;
    const start = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < steady; i++) {
      const wait = start + (i * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const e = event();
      await store.insert(e);
      commits.set(e.id, performance.now());
      ids.push(e.id);
    }
    await until(already + steady);
    const lags = ids.map((id) => arrived.get(id)! - commits.get(id)!);
    console.log(
      `lag commit -> delivery at ${RATE} events/s for ${SECONDS} s: p50 ${quantile(lags, 0.5).toFixed(1)} ms, p99 ${quantile(lags, 0.99).toFixed(1)} ms, max ${Math.max(...lags).toFixed(1)} ms`,
    );
  } finally {
    server.close();
    await fleet.close();
    receiver.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
