import { agricultureService } from '@fieldcast/agriculture';
import { eventsService } from '@fieldcast/events';
import { eventually } from '@fieldcast/runtime/testing';
import { broker, deploy, fieldBody, newAccount } from './helpers.js';

/**
 * Agriculture and events as two separate deployments that share nothing but PostgreSQL (each
 * its own schema) and Kafka: a field created over HTTP must reach the events feed through the
 * broker (docs/architecture.md §8).
 */
let agriculture: Awaited<ReturnType<typeof deploy>>;
let events: Awaited<ReturnType<typeof deploy>>;

beforeAll(async () => {
  agriculture = await deploy(agricultureService);
  events = await deploy(eventsService);
});
afterAll(async () => {
  await agriculture?.stop();
  await events?.stop();
});

async function createField(auth: string, description: string): Promise<string> {
  const res = await fetch(`${agriculture.url}/fields`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(fieldBody(description)),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function feed(auth: string): Promise<{ origin: { id: string }; message: string }[]> {
  const res = await fetch(`${events.url}/events?limit=100`, { headers: { Authorization: auth } });
  expect(res.status).toBe(200);
  return (await res.json()) as { origin: { id: string }; message: string }[];
}

it('a field created on the agriculture app reaches the events app’s feed through Kafka, for its owner only', async () => {
  const owner = await newAccount('owner');
  const stranger = await newAccount('stranger');
  const fieldId = await createField(owner.auth, 'e2e');
  const entries = await eventually(
    async () => {
      const list = await feed(owner.auth);
      expect(list.some((e) => e.origin.id === fieldId)).toBe(true);
      return list;
    },
    30_000,
    200,
  );
  expect(entries.filter((e) => e.origin.id === fieldId).map((e) => e.message)).toEqual(['Field {} was created']);
  expect((await feed(stranger.auth)).some((e) => e.origin.id === fieldId)).toBe(false);
});

it('with the broker down, field writes still succeed; once it is back each event arrives exactly once', async () => {
  const owner = await newAccount('outage');
  await broker('stop');
  let ids: string[];
  try {
    ids = [];
    for (let i = 0; i < 3; i++) ids.push(await createField(owner.auth, `during outage ${i}`));
    const pending = await agriculture.services[0]!.deps.outbox!.pending();
    expect(pending).toBeGreaterThanOrEqual(3);
  } finally {
    await broker('start');
  }
  await eventually(
    async () => {
      const list = await feed(owner.auth);
      for (const id of ids) expect(list.filter((e) => e.origin.id === id)).toHaveLength(1);
    },
    90_000,
    500,
  );
  // Give any duplicate delivery time to show, then check again: still exactly one each.
  await new Promise((r) => setTimeout(r, 3000));
  const list = await feed(owner.auth);
  for (const id of ids) expect(list.filter((e) => e.origin.id === id)).toHaveLength(1);
  expect(await agriculture.services[0]!.deps.outbox!.pending()).toBe(0);
});
