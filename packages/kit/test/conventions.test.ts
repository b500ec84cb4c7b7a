import request from 'supertest';
import { z } from 'zod';
import {
  Api,
  createServiceApp,
  ifMatchFails,
  ifNoneMatchHits,
  parseAccept,
  type Account,
  type Identity,
  type ServiceDefinition,
} from '../src/index.js';
import { testDeps } from './deps.js';

describe('Accept parsing', () => {
  it('reads media ranges with parameters and q', () => {
    expect(parseAccept('application/vnd.fieldcast+json; version=1, text/html;q=0.2')).toEqual([
      { type: 'application/vnd.fieldcast+json', params: { version: '1' }, q: 1 },
      { type: 'text/html', params: { q: '0.2' }, q: 0.2 },
    ]);
  });
});

/** One account with one key, in memory: the kit needs only the Identity interface, no database. */
const ACCOUNT: Account = { id: '3b0f8c1e-2d4a-4c6b-8e9f-0a1b2c3d4e5f', name: 'Probe', handle: 'probe' };
const KEY = 'probe-key';
const identity: Identity = {
  cachedAccount: () => undefined,
  authenticate: async (id, key) => (id === ACCOUNT.id && key === KEY ? ACCOUNT : null),
  findAccount: async (ref) => (ref === ACCOUNT.id || ref === ACCOUNT.handle ? ACCOUNT : null),
};
const account = { auth: `Basic ${Buffer.from(`${ACCOUNT.id}:${KEY}`).toString('base64')}` };

const probe: ServiceDefinition = {
  area: 'probe',
  title: 'Probe',
  description: 'a service for testing the kit',
  needs: {},
  api: () =>
    new Api().op({
      method: 'get',
      path: '/things/{id}',
      summary: 'read a thing',
      params: z.object({ id: z.uuid() }),
      query: z.object({ n: z.coerce.number().int().min(1).default(1) }),
      response: { status: 200, description: 'the thing', schema: z.object({ id: z.string(), n: z.number() }).meta({ id: 'Thing' }) },
      handle: ({ params, query }) => {
        if (params.id === '00000000-0000-4000-8000-000000000000') throw new Error('boom: secret detail');
        return { id: params.id, n: query.n };
      },
    }),
};

let checks: Record<string, boolean> = { database: true, transport: true };
const deps = testDeps(identity, { ready: async () => checks });
const app = createServiceApp(probe, deps);

describe('operational endpoints and the error handler', () => {
  it('healthz, readyz and metrics answer without credentials', async () => {
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(app).get('/readyz')).body).toEqual({ status: 'ready', checks: { database: true, transport: true } });
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toContain('http_request_duration_seconds_bucket');
    expect(metrics.text).toMatch(/http_requests_total\{method="GET",route="\/readyz",status="200",service="probe"\} 1/);
  });

  it('readyz is 503 while a dependency is down, naming it', async () => {
    checks = { database: true, transport: false };
    try {
      const res = await request(app).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', checks: { database: true, transport: false } });
    } finally {
      checks = { database: true, transport: true };
    }
  });

  it('a server fault is a 500 problem without the internal message or a stack', async () => {
    const res = await request(app).get('/things/00000000-0000-4000-8000-000000000000').set('Authorization', account.auth);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      type: 'urn:fieldcast:problem:internal_error',
      title: 'Internal Server Error',
      status: 500,
      detail: 'The server failed to handle the request',
      id: 'internal_error',
      message: 'The server failed to handle the request',
    });
    expect(res.text).not.toContain('secret detail');
  });

  it('query parameters are validated and coerced; the error names the parameter', async () => {
    const id = '6f1c2a7e-8b9d-4e6f-a1b2-c3d4e5f60718';
    expect((await request(app).get(`/things/${id}?n=3`).set('Authorization', account.auth)).body).toEqual({ id, n: 3 });
    const bad = await request(app).get(`/things/${id}?n=0`).set('Authorization', account.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid query parameter: n');
    expect(bad.body.errors[0].path).toBe('n');
  });

  it('serves an OpenAPI 3.1 document generated from the operations’ schemas', async () => {
    const doc = (await request(app).get('/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/things/{id}'].get;
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:id', 'query:n']);
    expect(op.responses['200'].content['application/vnd.fieldcast+json; version=1'].schema).toEqual({ $ref: '#/components/schemas/Thing' });
    expect(op.responses['400'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(doc.components.schemas.Thing.required).toEqual(['id', 'n']);
  });
});

describe('conditional requests (RFC 9110 section 13.1.2)', () => {
  it('If-None-Match names the current entity tag by weak comparison, or is *', () => {
    expect(ifNoneMatchHits('"a", "b"', '"b"')).toBe(true);
    expect(ifNoneMatchHits('W/"b"', '"b"')).toBe(true);
    expect(ifNoneMatchHits('"b"', 'W/"b"')).toBe(true);
    expect(ifNoneMatchHits(' * ', '"b"')).toBe(true);
    expect(ifNoneMatchHits('"c"', '"b"')).toBe(false);
    expect(ifNoneMatchHits('"bb"', '"b"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"b"')).toBe(false);
  });

  it('If-Match passes absent, as *, or naming the current entity tag by strong comparison (section 13.1.1)', () => {
    expect(ifMatchFails(undefined, '"b"')).toBe(false);
    expect(ifMatchFails(' * ', '"b"')).toBe(false);
    expect(ifMatchFails('"a", "b"', '"b"')).toBe(false);
    expect(ifMatchFails('"a"', '"b"')).toBe(true);
    expect(ifMatchFails('W/"b"', '"b"')).toBe(true);
    // A weak current tag matches nothing, a weak tag in the header included.
    expect(ifMatchFails('W/"b"', 'W/"b"')).toBe(true);
    expect(ifMatchFails('"b"', 'W/"b"')).toBe(true);
  });
});
