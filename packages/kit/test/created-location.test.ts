import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { Api, BodyFault, createServiceApp, JsonText, openApiDocument, type Account, type Identity } from '../src/index.js';
import { testDeps } from './deps.js';

/*
 * A 201 names where its resource is read (RFC 9110 sections 15.3.2 and 10.2.2): the read's path
 * template with the created id, derived from the collection when the read is `<path>/{id}`.
 */

const alice: Account = { id: '0b9d3c4e-1f2a-4b5c-8d6e-7f8091a2b3c4', name: 'Alice', handle: 'alice' };
const identity: Identity = {
  cachedAccount: () => undefined,
  authenticate: async (id, key) => (id === 'alice' && key === 'key' ? alice : null),
  findAccount: async () => null,
};
const auth = `Basic ${Buffer.from('alice:key').toString('base64')}`;
const ID = '5d2c7a1e-9b3f-4c8d-a6e5-0f1b2c3d4e5f';
const Thing = z.object({ id: z.string(), name: z.string() });

/** POST `create` answering 201 with `made`, and GET `read` answering 200; `location` as the create states it. */
function things(o: { create: string; read?: string; location?: string | false; made?: () => unknown }): Api {
  const api = new Api().op({
    method: 'post',
    path: o.create,
    summary: 'make a thing',
    body: z.object({ name: z.string() }),
    bodyFaults: BodyFault.malformed,
    response: { status: 201, description: 'the thing', schema: Thing },
    ...(o.location !== undefined ? { location: o.location } : {}),
    handle: ({ body }) => (o.made ? o.made() : { id: ID, name: body.name }),
  });
  if (o.read) {
    api.op({
      method: 'get',
      path: o.read,
      summary: 'read a thing',
      params: z.object({ id: z.string() }),
      response: { status: 200, description: 'the thing', schema: Thing },
      handle: ({ params }) => ({ id: params.id, name: 'read' }),
    });
  }
  return api;
}

const serve = (api: Api) =>
  createServiceApp({ area: 'things', title: 'Things', description: 'creates', needs: {}, api: () => api }, testDeps(identity));

describe('Location of a 201', () => {
  it('is the collection’s path plus the created id when the read is `<path>/{id}`, and reads the thing back', async () => {
    const app = serve(things({ create: '/things', read: '/things/{id}' }));
    const made = await request(app).post('/things').set('Authorization', auth).send({ name: 'a' });
    expect([made.status, made.headers.location]).toEqual([201, `/things/${ID}`]);
    const read = await request(app).get(made.headers.location!).set('Authorization', auth);
    expect([read.status, read.body.id]).toEqual([200, ID]);
  });

  it('is the read the create names, its one parameter filled, also from a body given as JSON text', async () => {
    const app = serve(
      things({
        create: '/v2/kinds/{kind}/things',
        read: '/v2/things/{id}.json',
        location: '/v2/things/{id}.json',
        made: () => new JsonText(JSON.stringify({ id: ID, name: 'a' })),
      }),
    );
    const made = await request(app).post('/v2/kinds/k/things').set('Authorization', auth).send({ name: 'a' });
    expect([made.status, made.headers.location]).toEqual([201, `/v2/things/${ID}.json`]);
  });

  it('is under the path the routes are mounted at, as the lists’ Link headers are', async () => {
    const router = express.Router();
    const pass: express.RequestHandler = (_req, res, next) => {
      res.locals.account = alice;
      next();
    };
    things({ create: '/things', read: '/things/{id}' }).mount(router, {
      negotiate: pass,
      vendor: 'fieldcast',
      authenticate: pass,
      parseBody: express.json(),
    });
    const app = express().use('/area', router);
    const made = await request(app).post('/area/things').send({ name: 'a' });
    expect([made.status, made.headers.location]).toEqual([201, `/area/things/${ID}`]);
  });

  it('is left out for a created thing with no read of its own (location: false)', async () => {
    const made = await request(serve(things({ create: '/things', location: false })))
      .post('/things')
      .set('Authorization', auth)
      .send({ name: 'a' });
    expect(made.status).toBe(201);
    expect(made.headers.location).toBeUndefined();
  });

  it('must be stated when no read follows from the path, and name a read that is served', () => {
    expect(() => serve(things({ create: '/things' }))).toThrow(/POST \/things answers 201 but no GET \/things\/\{id\}/);
    expect(() => serve(things({ create: '/things', read: '/things/{id}', location: '/stuff/{id}' }))).toThrow(
      /POST \/things names GET \/stuff\/\{id\} in its Location, which is no operation here/,
    );
  });

  it('is a CORS-exposed field, so a browser script on another origin may read it', async () => {
    const res = await request(serve(things({ create: '/things', read: '/things/{id}' })))
      .post('/things')
      .set('Authorization', auth)
      .set('Origin', 'https://example.org')
      .send({ name: 'a' });
    expect(res.headers['access-control-expose-headers']?.split(',')).toContain('Location');
  });
});

describe('the OpenAPI document', () => {
  it('declares Location on a 201, naming the read, and on no other answer', () => {
    const api = things({ create: '/things', read: '/things/{id}' });
    const doc = openApiDocument({ title: 't', version: '1', description: 'd', mediaType: 'application/json', operations: api.operations });
    const responses = (doc.paths['/things']!.post as { responses: Record<string, { headers: Record<string, unknown> }> }).responses;
    expect(responses['201']!.headers.Location).toEqual({
      description: 'Where the created resource is read, GET /things/{id} (RFC 9110 section 10.2.2): a path on this area',
      schema: { type: 'string', format: 'uri-reference' },
    });
    expect(Object.entries(responses).filter(([, r]) => 'Location' in r.headers)).toHaveLength(1);
    const read = (doc.paths['/things/{id}']!.get as { responses: Record<string, { headers: Record<string, unknown> }> }).responses;
    expect(read['200']!.headers.Location).toBeUndefined();
  });
});
