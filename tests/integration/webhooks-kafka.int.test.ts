import type { ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { verifyWebhook } from '@fieldcast/client';
import { eventually } from '@fieldcast/runtime/testing';
import { newAccount, serveArea } from './helpers.js';

/**
 * Webhook delivery survives the death of the process delivering it
 * (docs/decisions/0260-webhook-delivery.md): two `fieldcast serve events` replicas on PostgreSQL
 * and Kafka; the first is killed (SIGKILL) while its sends hang at the receiver; the second, in
 * the same consumer group, delivers every event once the dead replica's leases end.
 */
async function serveEvents(): Promise<{ child: ChildProcess; url: string }> {
  return serveArea('events', { env: { FIELDCAST_WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' } });
}

const children: ChildProcess[] = [];
let receiver: Server;
const hanging: ServerResponse[] = [];
let answering = false;
/** bodies answered 2xx, by CloudEvent id (the event's) */
const delivered = new Map<string, { body: string; headers: Record<string, string | string[] | undefined> }>();

beforeAll(async () => {
  receiver = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'OPTIONS') {
        res.setHeader('WebHook-Allowed-Origin', String(req.headers['webhook-request-origin']));
        res.end();
        return;
      }
      if (!answering) {
        hanging.push(res);
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      delivered.set((JSON.parse(body) as { id: string }).id, { body, headers: req.headers });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const res of hanging) res.destroy();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

it('every event is delivered after the delivering replica is killed mid-send', async () => {
  const first = await serveEvents();
  children.push(first.child);
  const account = await newAccount('webhooks-kill');
  const { port } = receiver.address() as { port: number };
  const created = await fetch(`${first.url}/subscriptions`, {
    method: 'POST',
    headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, filter: { apps: [account.id] } }),
  });
  expect(created.status).toBe(201);
  const subscription = (await created.json()) as { id: string; secret: string };
  const emit = async (url: string, n: number) => {
    const res = await fetch(`${url}/events`, {
      method: 'POST',
      headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ app: account.id, namespace: 'it/things/changed', message: `change ${n}` }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const ids: string[] = [];
  for (let n = 0; n < 5; n++) ids.push(await emit(first.url, n));
  // The first replica has claimed them and is waiting on the receiver: kill it there.
  await eventually(() => expect(hanging.length).toBeGreaterThan(0), 60_000, 100);
  const killed = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await killed;
  for (const res of hanging.splice(0)) res.destroy();
  answering = true;

  const second = await serveEvents();
  children.push(second.child);
  for (let n = 5; n < 8; n++) ids.push(await emit(second.url, n));
  // The dead replica's leases end (30 s) and the survivor's retry pass takes them up.
  await eventually(() => expect([...delivered.keys()].sort()).toEqual(expect.arrayContaining([...ids].sort())), 90_000, 250);
  for (const id of ids) {
    const { body, headers } = delivered.get(id)!;
    expect(await verifyWebhook(subscription.secret, body, headers)).toBe(true);
  }
  const list = await fetch(`${second.url}/subscriptions/${subscription.id}/deliveries?status=delivered`, {
    headers: { Authorization: account.auth },
  });
  const rows = (await list.json()) as { id: string; eventId: string; attempts: { statusCode: number | null }[] }[];
  expect(rows.map((d) => d.eventId).sort()).toEqual([...ids].sort());
  // each message's webhook-id is its delivery's
  for (const row of rows) expect(delivered.get(row.eventId)!.headers['webhook-id']).toBe(row.id);
  // The killed replica recorded nothing of the send it died in: each delivery's one attempt is the survivor's.
  expect(rows.map((d) => d.attempts.map((a) => a.statusCode))).toEqual(ids.map(() => [204]));
}, 180_000);
