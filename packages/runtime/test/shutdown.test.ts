import { Agent, get, type IncomingMessage } from 'node:http';
import request from 'supertest';
import { Api, createLogger } from '@fieldcast/kit';
import { z } from 'zod';
import { defineService } from '../src/needs.js';
import { startServices } from '../src/services.js';
import { openTestDatabase } from '../src/testing.js';

/**
 * A shutdown first fails readiness, then drains (docs/architecture.md §2): a request under way
 * when the process is told to stop is answered, and /readyz says 503 meanwhile.
 */
let release: () => void = () => undefined;
/** resolved when the slow request has reached its handler (a fixed sleep lost that race under load) */
let entered: () => void = () => undefined;
const slow = defineService({
  area: 'slow',
  port: 1,
  title: 'Slow',
  description: 'one request that waits to be released',
  needs: {},
  api: () =>
    new Api().op({
      method: 'get',
      path: '/slow',
      summary: 'answers when released',
      auth: false,
      response: { status: 200, description: 'done', schema: z.literal('done') },
      handle: () =>
        new Promise<'done'>((resolve) => {
          release = () => resolve('done');
          entered();
        }),
    }),
});

/** The slow area served on an ephemeral port, its stop given `shutdownTimeoutMs`. */
const startSlow = async (shutdownTimeoutMs: number) =>
  startServices([{ definition: slow, port: 0 }], {
    db: await openTestDatabase(),
    logger: createLogger({ level: 'silent' }),
    vendor: 'fieldcast',
    bodyLimit: '1mb',
    host: '127.0.0.1',
    shutdownTimeoutMs,
  });

it('fails /readyz at once, answers the request under way, then stops', async () => {
  const fleet = await startSlow(10_000);
  const [service] = fleet.services;
  expect((await request(service!.app).get('/readyz')).body).toEqual({ status: 'ready', checks: { database: true } });
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const underWay = fetch(`${service!.url}/slow`);
  await reached;
  let stopped = false;
  const stopping = fleet.stop().then(() => (stopped = true));
  const readiness = await request(service!.app).get('/readyz');
  expect([readiness.status, readiness.body.checks]).toEqual([503, { database: true, serving: false }]);
  expect(stopped).toBe(false);
  release();
  const answer = await underWay;
  expect([answer.status, await answer.text()]).toEqual([200, '"done"']);
  await stopping;
  expect(stopped).toBe(true);
});

it('closes a kept-alive connection after the request under way, so a busy client cannot hold the stop until its timeout cuts a request', async () => {
  const fleet = await startSlow(60_000);
  const [service] = fleet.services;
  // one connection, reused for every request, as a reverse proxy's pool keeps it
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (path: string) =>
    new Promise<IncomingMessage>((resolve, reject) => get(`${service!.url}${path}`, { agent }, resolve).on('error', reject));
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const underWay = send('/slow');
  await reached;
  const stopping = fleet.stop();
  release();
  const answer = await underWay;
  answer.resume();
  expect([answer.statusCode, answer.headers.connection]).toEqual([200, 'close']);
  // the next request needs a new connection, which the closed listener refuses
  await expect(send('/healthz')).rejects.toThrow(/ECONNREFUSED/);
  await stopping;
  agent.destroy();
});
