import request from 'supertest';
import { z } from 'zod';
import { Api, BodyFault, createServiceApp, type ServiceDefinition } from '../src/index.js';
import { probeAuth as auth, probeIdentity as identity, testDeps } from './deps.js';

/** What the probe's one operation was handed, so a test can tell that a refused body reached no handler. */
let received: unknown[] = [];

const echo: ServiceDefinition = {
  area: 'echo',
  title: 'Echo',
  description: 'a service for testing how JSON request bodies are read',
  needs: {},
  api: () =>
    new Api().op({
      method: 'post',
      path: '/echo',
      summary: 'takes any JSON body and answers it',
      body: z.unknown(),
      bodyFaults: BodyFault.malformed,
      response: { status: 200, description: 'the body read', schema: z.unknown() },
      handle: ({ body }) => {
        received.push(body);
        return { body };
      },
    }),
};

const app = createServiceApp(echo, testDeps(identity, { bodyLimit: '2mb' }));
const post = (text: string) => request(app).post('/echo').set('Authorization', auth).set('Content-Type', 'application/json').send(text);

beforeEach(() => {
  received = [];
});

// RFC 7493 (I-JSON) section 2.3: objects MUST NOT have members with duplicate names; RFC 8259
// section 4 leaves what a receiver makes of them unpredictable (docs/interface.md §1).
describe('a JSON body with a name twice in one object', () => {
  it.each([
    ['at the top level', '{"description":"a","description":"b"}', ['description']],
    ['in a nested object', '{"geometry":{"type":"Point","coordinates":[1,2],"coordinates":[3,4]}}', ['geometry.coordinates']],
    ['in an object in an array, by its index', '{"points":[{"name":"a"},{"name":"b"},{"x":1},{"name":"c","name":"d"}]}', ['points.3.name']],
    ['once spelled with an escape (RFC 8259 section 7)', '{"a":1,"\\u0061":2}', ['a']],
    ['after a value with escaped quotes and brackets', '{"n":"say \\"{a\\":[\\"","n":2}', ['n']],
    ['in a top-level array', '[{"k":1},{"k":2,"k":3}]', ['1.k']],
  ])('%s: 400 invalid_body with the path of the duplicate, no handler reached', async (_what, text, paths) => {
    const res = await post(text);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, id: 'invalid_body', title: expect.any(String), detail: expect.any(String) });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expect(received).toEqual([]);
  });

  it('each duplicate is named once, however often its name recurs', async () => {
    const res = await post('{"a":1,"a":2,"a":3,"b":{"c":1,"c":2}}');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['a', 'b.c']);
  });
});

describe('a JSON body with every name once per object', () => {
  it.each([
    ['the same name in two objects', '{"name":"a","child":{"name":"b"},"list":[{"name":"c"},{"name":"d"}]}'],
    ['a name that is another one as a value', '{"a":"a","b":["a","a"]}'],
    ['names that differ in case or escapes that denote other text', '{"a":1,"A":2,"\\u0062":3,"a\\"":4}'],
    ['no object at all', '["a","a"]'],
  ])('%s: read as sent', async (_what, text) => {
    const res = await post(text);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: JSON.parse(text) });
  });

  it('a batch of 1,000 points, over a megabyte: read as sent', async () => {
    const body = {
      points: Array.from({ length: 1000 }, (_, n) => ({
        name: `point ${n} \u00e9 \\ "quoted"`,
        geometry: { type: 'Point', coordinates: [n / 1000, -n / 1000] },
        properties: { note: 'x'.repeat(1000), tags: ['a', 'b'] },
      })),
    };
    const text = JSON.stringify(body);
    expect(text.length).toBeGreaterThan(1_000_000);
    const res = await post(text);
    expect(res.status).toBe(200);
    expect(received).toEqual([JSON.parse(text)]);
  });
});
