import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { eventually } from '@fieldcast/runtime/testing';
import { fieldBody, newAccount, requireEnv } from './helpers.js';

/** `fieldcast serve agriculture` as an operator runs it: a process configured only by its environment. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let child: ChildProcess;
let url: string;

beforeAll(async () => {
  const { url: databaseUrl, brokers } = requireEnv();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), ['packages/fleet/src/cli.ts', 'serve', 'agriculture'], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: brokers.join(','),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await eventually(async () => expect((await fetch(`${url}/readyz`)).status).toBe(200), 60_000, 250);
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

it('serves the fields API on PostgreSQL and Kafka and stops cleanly on SIGTERM', async () => {
  const account = await newAccount('serve');
  const created = await fetch(`${url}/fields`, {
    method: 'POST',
    headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(fieldBody('served')),
  });
  expect(created.status).toBe(201);
  const field = (await created.json()) as { id: string; geometries: { type: string }[] };
  expect(field.geometries[0]!.type).toBe('MultiPolygon');
  const list = await fetch(`${url}/fields`, { headers: { Authorization: account.auth } });
  expect(((await list.json()) as { id: string }[]).map((f) => f.id)).toEqual([field.id]);
  expect(
    (await fetch(`${url}/fields`, { headers: { Authorization: account.auth, Accept: 'application/vnd.fieldcast+json; version=2' } }))
      .status,
  ).toBe(406);

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});
