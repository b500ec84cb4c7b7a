import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { listen } from '@fieldcast/runtime';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';

const t = useTestFleet([agricultureService]);
const app = () => t.fleet.app('agriculture');

const FIELD = '{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[[[0,0],[0.01,0],[0.01,0.01],[0,0.01],[0,0]]]}]';
const fieldJson = (description: string) => `${FIELD},"description":"${description}"}`;

async function countFields(): Promise<number> {
  const row = await t.fleet.db.knex.withSchema('agriculture').table('fields').count({ n: '*' }).first();
  return Number(row?.n);
}

function expectProblem(res: request.Response, status: number, id?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.text) as { status: number; id: string };
  expect(body.status).toBe(status);
  if (id) expect(body.id).toBe(id);
}

describe('no 5xx from input: agriculture', () => {
  it.each([
    ['get', '/fields/%ff'],
    ['put', '/fields/%ff'],
    ['delete', '/fields/%ff'],
    ['get', '/fields/%E0%A4%A'],
    ['get', '/growing-degree-days/%ff?startDate=2024-01-01&endDate=2024-01-10&baseTemperature=10&scale=Celsius'],
    ['get', '/growing-degree-days/%ff/contours?startDate=2024-01-01&endDate=2024-01-10&baseTemperature=10&scale=Celsius'],
    ['get', '/growing-degree-days/%ff/10?startDate=2024-01-01&endDate=2024-01-10&baseTemperature=10&scale=Celsius'],
    ['get', '/growing-degree-days/10/%c0%af?startDate=2024-01-01&endDate=2024-01-10&baseTemperature=10&scale=Celsius'],
  ] as const)('%s %s: a path parameter that is not percent-encoded UTF-8 is 400 malformed_path', async (method, path) => {
    const res = await request(app())[method](path).set('Authorization', t.alice.auth);
    expectProblem(res, 400, 'malformed_path');
  });

  it('a Content-Encoding: gzip body that is not gzip is 400 and stores nothing', async () => {
    const res = await request(app())
      .post('/fields')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(fieldJson('x'));
    expectProblem(res, 400, 'malformed_body_encoding');
    expect(await countFields()).toBe(0);
  });

  it('an unknown Content-Encoding is 415', async () => {
    const res = await request(app())
      .post('/fields')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-snappy')
      .send(fieldJson('x'));
    expectProblem(res, 415, 'unsupported_encoding');
  });

  it.each([
    ['U+0000', '\\u0000', 'U+0000'],
    ['a lone high surrogate', 'a\\ud800b', 'unpaired surrogate'],
    ['a lone low surrogate', '\\udc00', 'unpaired surrogate'],
  ])('a description with %s is 400 invalid_body at description, on POST and PUT, and changes nothing', async (_name, escaped, said) => {
    const post = await request(app())
      .post('/fields')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .send(fieldJson(escaped));
    expectProblem(post, 400, 'invalid_body');
    expect(post.body.errors).toEqual([{ path: 'description', message: expect.stringContaining(said) }]);
    expect(await countFields()).toBe(0);

    const created = await request(app())
      .post('/fields')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .send(fieldJson('kept'));
    expect(created.status).toBe(201);
    const put = await request(app())
      .put(`/fields/${created.body.id}`)
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .send(fieldJson(escaped));
    expectProblem(put, 400, 'invalid_body');
    const read = await request(app()).get(`/fields/${created.body.id}`).set('Authorization', t.alice.auth);
    expect(read.body.description).toBe('kept');
  });

  it('a paired surrogate (an astral character) is text and is kept', async () => {
    const res = await request(app())
      .post('/fields')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .send(fieldJson('\\ud83c\\udf3e wheat'));
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('🌾 wheat');
  });

  it('a body without credentials is never read: malformed, not gzip, or over the limit, it is 401', async () => {
    const malformed = await request(app()).post('/fields').set('Content-Type', 'application/json').send('{"description": ');
    expectProblem(malformed, 401, 'unauthorized');
    const notGzip = await request(app())
      .put('/fields/00000000-0000-4000-8000-000000000000')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not gzip');
    expectProblem(notGzip, 401, 'unauthorized');
    const huge = await request(app())
      .post('/fields')
      .set('Authorization', 'Basic bm9ib2R5Om5vdGhpbmc=')
      .set('Content-Type', 'application/json')
      .send(`{"description":"${'x'.repeat(3_000_000)}"}`);
    expectProblem(huge, 401, 'unauthorized');
    expect(await countFields()).toBe(0);
  });

  it('header fields over 16 KB are 431 problem+json (RFC 6585 section 5), not a bare status line', async () => {
    const server = await listen(app(), 0, '127.0.0.1');
    try {
      const { port } = server.address() as AddressInfo;
      const { status, type, body } = await new Promise<{ status?: number; type?: string; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: '/fields', headers: { Authorization: t.alice.auth, 'X-Padding': 'x'.repeat(20_000) } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body: text }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(431);
      expect(type).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(body)).toMatchObject({ status: 431, id: 'request_header_fields_too_large' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
