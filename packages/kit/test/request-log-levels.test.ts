import { pino } from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { Api, createServiceApp, UnavailableError, type HttpDeps, type Identity, type ServiceDefinition } from '../src/index.js';

/**
 * What an operator reads: probes and scrapes only at debug, an
 * expected 503 that says when to come back a warning without a stack, a fault one error line
 * with its stack and request id.
 */
const lines: Record<string, unknown>[] = [];
const logger = pino({ level: 'debug', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
const identity: Identity = { cachedAccount: () => undefined, authenticate: async () => null, findAccount: async () => null };

const service: ServiceDefinition = {
  area: 'logs',
  title: 'Logs',
  description: 'answers with each kind of outcome',
  needs: {},
  api: () =>
    new Api()
      .op({
        method: 'get',
        path: '/later',
        summary: 'a file being made',
        auth: false,
        errors: [503],
        response: { status: 200, description: 'never', schema: z.string() },
        handle: ({ res }) => {
          res.setHeader('Retry-After', '30');
          throw new UnavailableError('being_made', 'being made; ask again in 30 s');
        },
      })
      .op({
        method: 'get',
        path: '/fault',
        summary: 'a fault',
        auth: false,
        response: { status: 200, description: 'never', schema: z.string() },
        handle: () => {
          throw new Error('boom');
        },
      }),
};
const deps: HttpDeps = { identity, logger, vendor: 'fieldcast', bodyLimit: '1mb', now: () => new Date(), ready: async () => ({}) };
const app = createServiceApp(service, deps);
const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 };

describe('log levels of requests', () => {
  beforeEach(() => lines.splice(0));

  it('probes and scrapes are debug', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) await request(app).get(path);
    expect(lines.map((l) => [l.route, l.level])).toEqual([
      ['/healthz', LEVEL.debug],
      ['/readyz', LEVEL.debug],
      ['/metrics', LEVEL.debug],
    ]);
  });

  it('a 503 with Retry-After is one warning, without a stack', async () => {
    const res = await request(app).get('/later');
    expect(res.status).toBe(503);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: LEVEL.warn, status: 503, requestId: res.headers['x-request-id'] });
    expect(JSON.stringify(lines)).not.toContain('"stack"');
  });

  it('a fault is an error with its stack and request id, then the request line', async () => {
    const res = await request(app).get('/fault');
    expect(res.status).toBe(500);
    expect(lines.map((l) => l.level)).toEqual([LEVEL.error, LEVEL.error]);
    expect(lines[0]).toMatchObject({ msg: 'request failed', requestId: res.headers['x-request-id'], err: { message: 'boom' } });
    expect(String((lines[0]!.err as { stack: string }).stack)).toContain('boom');
  });
});
