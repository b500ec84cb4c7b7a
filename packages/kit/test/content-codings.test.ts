import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { z } from 'zod';
import { BodyFault, createServiceApp, type ServiceDefinition } from '../src/index.js';
import { list, thingsApi } from './things.js';
import { probeAuth as auth, probeIdentity as identity, testDeps } from './deps.js';

const things: ServiceDefinition = {
  area: 'things',
  title: 'Things',
  description: 'a service for testing content codings (RFC 9110 sections 8.4 and 12.5.3)',
  needs: {},
  api: () =>
    thingsApi()
      .op({
        method: 'get',
        path: '/unchanged',
        summary: 'a read answered 304, as one whose If-None-Match names its tag',
        response: list,
        handle: ({ res }) => {
          res.status(304).setHeader('ETag', '"v1"');
          res.end();
        },
      })
      .op({
        method: 'post',
        path: '/echoes',
        summary: 'echo',
        body: z.object({ name: z.string() }),
        bodyFaults: BodyFault.malformed,
        response: { status: 200, description: 'the body', schema: z.object({ name: z.string() }) },
        handle: ({ body }) => body,
      }),
};

const app = createServiceApp(things, testDeps(identity));

/** The answer's status and coding, its body not decoded (supertest would undo gzip). */
async function coded(path: string, acceptEncoding: string, method: 'get' | 'head' = 'get') {
  const res = await request(app)
    [method](path)
    .set('Authorization', auth)
    .set('Accept-Encoding', acceptEncoding)
    .buffer(true)
    .parse((stream, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => done(null, Buffer.concat(chunks)));
    });
  return {
    status: res.status,
    coding: res.headers['content-encoding'] as string | undefined,
    vary: res.headers.vary as string | undefined,
    body: res.body as Buffer,
  };
}

describe('a request body in x-gzip is read as gzip (RFC 9110 section 8.4.1.3)', () => {
  it.each(['gzip', 'x-gzip', 'X-GZIP'])('Content-Encoding: %s', async (coding) => {
    // sent by node:http, since supertest would write a Buffer under a JSON type as JSON
    const server = app.listen(0, '127.0.0.1');
    try {
      await once(server, 'listening');
      const bytes = gzipSync(Buffer.from('{"name":"zipped"}'));
      const req = httpRequest({
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        path: '/echoes',
        headers: {
          Authorization: auth,
          'Content-Type': 'application/json',
          'Content-Encoding': coding,
          'Content-Length': String(bytes.length),
        },
      });
      req.end(bytes);
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      expect([res.statusCode, JSON.parse(Buffer.concat(chunks).toString('utf8'))]).toEqual([200, { name: 'zipped' }]);
    } finally {
      server.close();
    }
  });
});

describe('an Accept-Encoding that refuses identity is honoured (RFC 9110 section 12.5.3)', () => {
  it('a body under the threshold is still coded when identity is refused and a coding is taken', async () => {
    for (const acceptEncoding of ['gzip, identity;q=0', 'gzip;q=1, *;q=0', 'br, identity;q=0']) {
      const res = await coded('/few-things', acceptEncoding);
      expect([acceptEncoding, res.status, res.coding]).toEqual([
        acceptEncoding,
        200,
        acceptEncoding.slice(0, acceptEncoding.search(/[;,]/)),
      ]);
      expect(res.vary?.split(/,\s*/)).toContain('Accept-Encoding');
    }
  });

  it('a PNG, otherwise never coded, is coded when identity is refused', async () => {
    const res = await coded('/tiles/3.png', 'gzip, identity;q=0');
    expect([res.status, res.coding]).toEqual([200, 'gzip']);
  });

  it('without a refusal of identity, small bodies and PNGs stay uncoded', async () => {
    expect((await coded('/few-things', 'gzip')).coding).toBeUndefined();
    expect((await coded('/tiles/3.png', 'gzip, br')).coding).toBeUndefined();
    expect((await coded('/things', 'gzip')).coding).toBe('gzip');
    // an empty field asks for no coding at all (RFC 9110 section 12.5.3)
    expect((await coded('/things', '')).coding).toBeUndefined();
  });

  it.each(['identity;q=0', '*;q=0', 'gzip;q=0, identity;q=0', 'compress, identity;q=0', 'br;q=0, gzip;q=0, deflate;q=0, *;q=0'])(
    '%s: no coding it takes is one the service writes, so 406 problem+json, for HEAD too',
    async (acceptEncoding) => {
      const res = await request(app)
        .get('/things')
        .set('Authorization', auth)
        .set('Accept-Encoding', acceptEncoding)
        .set('Origin', 'https://map.example.org');
      expect([res.status, res.headers['content-type'], res.body.id]).toEqual([
        406,
        'application/problem+json; charset=utf-8',
        'not_acceptable',
      ]);
      // readable from another origin, and what it says, like every other answer
      expect([res.headers['access-control-allow-origin'], res.headers['x-content-type-options']]).toEqual(['*', 'nosniff']);
      expect(res.body.detail).toBe(
        `Cannot produce a content coding ${acceptEncoding} takes; this service writes br, gzip, deflate and identity`,
      );
      expect(res.headers.vary?.split(/,\s*/)).toContain('Accept-Encoding');
      expect((await coded('/things', acceptEncoding, 'head')).status).toBe(406);
    },
  );

  it('a 304 says no coding: it has no content to be coded (RFC 9110 section 15.4.5)', async () => {
    const res = await coded('/unchanged', 'gzip, identity;q=0');
    expect([res.status, res.coding, res.body.length]).toEqual([304, undefined, 0]);
  });

  // A weight outside RFC 9110 section 12.4.2's grammar is read as no weight, q=1, the negotiation's
  // and the compression's alike (docs/decisions/0525-a-malformed-weight-is-no-weight.md).
  it.each([
    ['identity;q=abc', '/few-things', undefined],
    ['identity;q=', '/things', undefined],
    ['gzip;q=abc, identity;q=0', '/few-things', 'gzip'],
    ['br;q=high, identity;q=0', '/things', 'br'],
  ])('%s on %s: the member with a malformed weight is taken, as one without a weight', async (acceptEncoding, path, coding) => {
    const res = await coded(path, acceptEncoding);
    expect([res.status, res.coding]).toEqual([200, coding]);
    expect((await coded(path, acceptEncoding, 'head')).status).toBe(200);
  });

  it('a weight written with more decimals than the grammar allows keeps its value: gzip;q=0.0000 is refused', async () => {
    const res = await coded('/things', 'gzip;q=0.0000, identity');
    expect([res.status, res.coding]).toEqual([200, undefined]);
  });

  it('identity refused by * but named by itself is taken (the more specific entry)', async () => {
    const res = await coded('/few-things', '*;q=0, identity');
    expect([res.status, res.coding]).toEqual([200, undefined]);
  });
});
