import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { listen } from '@fieldcast/runtime';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { eventsService } from '../src/definition.js';

const t = useTestFleet([eventsService]);
const app = () => t.fleet.app('events');

async function countEvents(): Promise<number> {
  const row = await t.fleet.db.knex.withSchema('events').table('events').count({ n: '*' }).first();
  return Number(row?.n);
}

function expectProblem(res: request.Response, status: number, id?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.text) as { status: number; id: string };
  expect(body.status).toBe(status);
  if (id) expect(body.id).toBe(id);
}

const eventJson = (app: string, message: string) => `{"app":"${app}","namespace":"crops/harvest","message":"${message}"}`;
const post = () => request(app()).post('/events').set('Authorization', t.alice.auth).set('Content-Type', 'application/json');

describe('no 5xx from input: events', () => {
  it.each(['/events/%ff', '/event/%ff', '/apps/%ff/events', '/resources/%ff/events', '/apps/%E0%A4%A/events'])(
    'GET %s: a path parameter that is not percent-encoded UTF-8 is 400 malformed_path',
    async (path) => {
      expectProblem(await request(app()).get(path).set('Authorization', t.alice.auth), 400, 'malformed_path');
    },
  );

  it('a Content-Encoding: gzip body that is not gzip is 400 and stores nothing', async () => {
    const res = await post().set('Content-Encoding', 'gzip').send(eventJson(t.alice.handle, 'hello'));
    expectProblem(res, 400, 'malformed_body_encoding');
    expect(await countEvents()).toBe(0);
  });

  it.each([
    ['message', 'U+0000', () => eventJson(t.alice.handle, 'a\\u0000b'), 'U+0000'],
    ['message', 'a lone surrogate', () => eventJson(t.alice.handle, 'a\\ud800'), 'unpaired surrogate'],
    ['app', 'U+0000', () => eventJson(`${t.alice.handle}\\u0000`, 'hello'), 'U+0000'],
    ['app', 'a lone surrogate', () => eventJson('\\udfff', 'hello'), 'unpaired surrogate'],
    ['namespace', 'U+0000', () => `{"app":"${t.alice.handle}","namespace":"crops\\u0000","message":"hello"}`, 'U+0000'],
  ])('%s with %s is 400 invalid_body at that member and stores nothing', async (member, _name, body, said) => {
    const res = await post().send(body());
    expectProblem(res, 400, 'invalid_body');
    expect(res.body.errors).toEqual([{ path: member, message: expect.stringContaining(said) }]);
    expect(await countEvents()).toBe(0);
  });

  it('a body without credentials is never read: malformed, not gzip, or over the limit, it is 401', async () => {
    expectProblem(await request(app()).post('/events').set('Content-Type', 'application/json').send('{"app": '), 401, 'unauthorized');
    expectProblem(
      await request(app()).post('/events').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('not gzip'),
      401,
      'unauthorized',
    );
    const huge = await request(app())
      .post('/events')
      .set('Authorization', 'Basic bm9ib2R5Om5vdGhpbmc=')
      .set('Content-Type', 'application/json')
      .send(`{"message":"${'x'.repeat(3_000_000)}"}`);
    expectProblem(huge, 401, 'unauthorized');
    expect(await countEvents()).toBe(0);
  });

  it('header fields over 16 KB are 431 problem+json (RFC 6585 section 5), not a bare status line', async () => {
    const server = await listen(app(), 0, '127.0.0.1');
    try {
      const { port } = server.address() as AddressInfo;
      const { status, type, body } = await new Promise<{ status?: number; type?: string; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: '/events', headers: { Authorization: t.alice.auth, Cookie: 'c'.repeat(17_000) } },
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

describe('ids in upper case name the same event or resource, answered in lower case (RFC 9562 section 4)', () => {
  it('reads an event and a resource feed by an upper-case id', async () => {
    const posted = await post().send(eventJson(t.alice.handle, 'hello'));
    expect(posted.status).toBe(200);
    const id = posted.body.id as string;
    for (const path of [`/events/${id.toUpperCase()}`, `/event/${id.toUpperCase()}`]) {
      const res = await request(app()).get(path).set('Authorization', t.alice.auth);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(id);
    }
    const feed = await request(app())
      .get(`/resources/${t.alice.id.toUpperCase()}/events?after=${id.toUpperCase()}`)
      .set('Authorization', t.alice.auth);
    expect(feed.status).toBe(200);
    const appFeed = await request(app()).get(`/apps/${t.alice.id.toUpperCase()}/events`).set('Authorization', t.alice.auth);
    expect(appFeed.body.map((e: { id: string }) => e.id)).toEqual([id]);
  });
});
