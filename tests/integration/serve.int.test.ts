import { fieldBody, newAccount, serveArea, type ServedArea } from './helpers.js';

/** `fieldcast serve agriculture` as an operator runs it: a process configured only by its environment. */
let served: ServedArea;
let url: string;

beforeAll(async () => {
  served = await serveArea('agriculture');
  url = served.url;
});

afterAll(() => {
  if (served.child.exitCode === null) served.child.kill('SIGKILL');
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

  served.child.kill('SIGTERM');
  expect(await served.exited).toBe(0);
});
