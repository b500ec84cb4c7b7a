import { pino } from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { Api, createLogger, createServiceApp, UnavailableError, type Identity, type ServiceDefinition } from '../src/index.js';
import { testDeps } from './deps.js';

/**
 * What an operator reads: probes and scrapes only at debug, an
 * expected 503 that says when to come back a warning without a stack, a fault one error line
 * with its stack and request id (the request's own line).
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
      })
      .op({
        method: 'get',
        path: '/dropped',
        summary: 'a fault on a connection that is gone before the answer',
        auth: false,
        response: { status: 200, description: 'never', schema: z.string() },
        handle: ({ res }) => {
          res.socket?.destroy();
          throw new Error('gone');
        },
      }),
};
const deps = testDeps(identity, { logger });
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

  it('a fault is one error line: the request, its request id and the error with its stack', async () => {
    const res = await request(app).get('/fault');
    expect(res.status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: LEVEL.error,
      msg: 'request failed',
      requestId: res.headers['x-request-id'],
      method: 'GET',
      path: '/fault',
      status: 500,
      err: { message: 'boom' },
    });
    expect(String((lines[0]!.err as { stack: string }).stack)).toContain('boom');
  });

  it('a fault whose connection closed before its answer is still logged, once', async () => {
    await request(app)
      .get('/dropped')
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.map((l) => [l.level, l.msg, (l.err as { message?: string } | undefined)?.message])).toEqual([
      [LEVEL.error, 'request failed', 'gone'],
    ]);
  });
});

describe("a fault's error in the log", () => {
  it('keeps each member bounded: a failed statement carries its SQL and values, megabytes for a large insert', () => {
    const written: string[] = [];
    const bounded = createLogger({ level: 'info' }, { write: (line: string) => void written.push(line) });
    const err = Object.assign(new Error(`insert into days values ${'($1, $2), '.repeat(300_000)}- bind message too long`), {
      bindings: Array.from({ length: 100_000 }, (_, i) => i),
      code: '08P01',
    });
    bounded.error({ err }, 'request failed');
    expect(written).toHaveLength(1);
    expect(written[0]!.length).toBeLessThan(40_000);
    const line = JSON.parse(written[0]!);
    expect(line.err.message).toMatch(/^insert into days values \(\$1, \$2\), .*\.\.\. \(\d+ more characters\)$/s);
    expect(line.err.bindings).toMatch(/^\[0,1,2,.*\.\.\. \(\d+ more characters\)$/s);
    expect(line.err).toMatchObject({ type: 'Error', code: '08P01', stack: expect.stringMatching(/^Error: insert into/) });
  });
});
