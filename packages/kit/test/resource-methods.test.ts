import request from 'supertest';
import { z } from 'zod';
import { Api, createServiceApp, type ServiceDefinition } from '../src/index.js';
import { probeAuth as auth, probeIdentity as identity, testDeps } from './deps.js';

/** Which handlers ran: a refused method runs none. */
const handled: string[] = [];
const answer = (name: string) => () => {
  handled.push(name);
  return { name };
};
const ok = { status: 200, description: 'ok', schema: z.object({ name: z.string() }) };
const Id = z.object({ id: z.string() });

const things: ServiceDefinition = {
  area: 'things',
  title: 'Things',
  description: 'a service for testing which methods a path takes',
  needs: {},
  api: () =>
    new Api()
      .op({ method: 'post', path: '/things/batch', summary: 'batch', response: ok, handle: answer('batch') })
      .op({ method: 'get', path: '/things/{id}/parts', summary: 'parts', params: Id, response: ok, handle: answer('parts') })
      .op({ method: 'get', path: '/things/{id}', summary: 'read', params: Id, response: ok, handle: answer('read') })
      .op({ method: 'delete', path: '/things/{id}', summary: 'delete', params: Id, response: ok, handle: answer('delete') })
      .op({
        method: 'get',
        path: '/maps/{z}/{y}.png',
        summary: 'tile',
        params: z.object({ z: z.string(), y: z.string() }),
        response: ok,
        handle: answer('tile'),
      }),
};

const deps = testDeps(identity);
const app = createServiceApp(things, deps);

beforeEach(() => {
  handled.length = 0;
});

describe('a method the path does not take (RFC 9110 section 15.5.6)', () => {
  it('is 405 naming the methods in Allow, even where a less specific path of that method would take it', async () => {
    const res = await request(app).get('/things/batch').set('Authorization', auth);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('OPTIONS, POST');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 405,
      id: 'method_not_allowed',
      message: 'GET is not allowed on /things/batch; it takes OPTIONS, POST',
    });
    expect(handled).toEqual([]);
  });

  it.each([
    ['put', '/things/a1', 'DELETE, GET, HEAD, OPTIONS'],
    ['post', '/things/a1/parts', 'GET, HEAD, OPTIONS'],
    ['delete', '/maps/3/4.png', 'GET, HEAD, OPTIONS'],
    ['patch', '/things/a1/', 'DELETE, GET, HEAD, OPTIONS'],
  ] as const)('%s %s: 405, Allow %s', async (method, path, allowed) => {
    const res = await request(app)[method](path).set('Authorization', auth);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allowed);
    expect(handled).toEqual([]);
  });

  it('the methods a path takes are served, HEAD with GET; a path no resource matches is 404', async () => {
    expect((await request(app).post('/things/batch').set('Authorization', auth)).body).toEqual({ name: 'batch' });
    expect((await request(app).get('/things/a1').set('Authorization', auth)).body).toEqual({ name: 'read' });
    expect((await request(app).delete('/things/a1').set('Authorization', auth)).body).toEqual({ name: 'delete' });
    expect((await request(app).head('/things/a1').set('Authorization', auth)).status).toBe(200);
    expect((await request(app).get('/maps/3/4.png').set('Authorization', auth)).body).toEqual({ name: 'tile' });
    const unknown = await request(app).post('/things/a1/parts/more').set('Authorization', auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('route_does_not_exist');
  });
});

describe('OPTIONS that is no CORS preflight (RFC 9110 section 9.3.7)', () => {
  it.each([
    ['/things/a1', 'DELETE, GET, HEAD, OPTIONS'],
    ['/things/batch', 'OPTIONS, POST'],
    ['/things/a1/parts', 'GET, HEAD, OPTIONS'],
    ['/maps/3/4.png', 'GET, HEAD, OPTIONS'],
  ])('%s: 204 with Allow %s, the methods a 405 names, without credentials', async (path, allowed) => {
    const res = await request(app).options(path);
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe(allowed);
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(handled).toEqual([]);
  });

  it('from a page on another origin (Origin, no Access-Control-Request-Method): Allow, and the CORS fields of any answer', async () => {
    const res = await request(app).options('/things/a1').set('Origin', 'https://example.org');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('a path no resource matches is 404, as for any other method', async () => {
    const res = await request(app).options('/things/a1/parts/more');
    expect(res.status).toBe(404);
    expect(res.body.id).toBe('route_does_not_exist');
    expect(res.headers.allow).toBeUndefined();
  });
});

describe('a CORS preflight (WHATWG Fetch, CORS protocol)', () => {
  it('names the methods operations may have, HEAD and OPTIONS: none the service never takes', async () => {
    const res = await request(app).options('/things/1').set('Origin', 'https://example.org').set('Access-Control-Request-Method', 'DELETE');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-methods']?.split(',').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
  });

  it('is answered alike on a path no resource matches: a preflight is about the method, not the resource', async () => {
    const res = await request(app).options('/nowhere').set('Origin', 'https://example.org').set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBeUndefined();
  });
});

describe('a preflight may be kept by the browser (WHATWG Fetch, CORS-preflight cache)', () => {
  it('says for how long, so a page polling one URL or drawing tiles again is not preflighted before each request', async () => {
    const res = await request(app)
      .options('/things/1')
      .set('Origin', 'https://map.example.org')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization, if-none-match');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, if-none-match');
  });
});

describe('a path no resource matches is negotiated (docs/decisions/0038-one-route-per-operation.md)', () => {
  it('so its 404, and the 406 another Accept gets, say Vary: Accept (RFC 9110 section 12.5.5)', async () => {
    for (const accept of ['application/json', 'text/html']) {
      const res = await request(app).get('/nowhere').set('Accept', accept);
      expect([accept, res.status]).toEqual([accept, accept === 'text/html' ? 406 : 404]);
      expect(res.headers.vary?.split(/,\s*/)).toContain('Accept');
    }
  });
});

describe('a path that percent-encodes unreserved characters names the same resource (RFC 3986 section 6.2.2.2)', () => {
  it.each([
    ['/maps/3/4%2Epng', 'tile'],
    ['/maps/3/4%2epng', 'tile'],
    ['/th%69ngs/a1', 'read'],
    ['/things/a1/p%61rts', 'parts'],
    ['/things/%7Ea%5F1', 'read'],
  ])('%s is read as the same path decoded', async (path, handler) => {
    const res = await request(app).get(path).set('Authorization', auth);
    expect([res.status, handled]).toEqual([200, [handler]]);
  });

  it('a reserved character stays encoded: %2F is within one segment, not a separator', async () => {
    const res = await request(app).get('/things/a1%2Fparts').set('Authorization', auth);
    expect([res.status, handled]).toEqual([200, ['read']]);
  });
});
