import request from 'supertest';
import { createLogger, createServiceApp, type HttpDeps, type Identity } from '@fieldcast/kit';
import { archiveRoutes } from '../src/routes/archive.js';
import type { ArchiveUserStore } from '../src/store.js';
import type { SevereEventBlocks } from '../src/domain/event-blocks.js';
import type { IngestedReportSource } from '../src/domain/ingested-reports.js';

/**
 * The archive answers its own failures in its formats, yet a fault is logged as in every area
 * (docs/operations.md, readiness, recovery and metrics): one error line, the request's own, with
 * its request id and the error's stack.
 */
const lines: Record<string, unknown>[] = [];
const logger = createLogger({ level: 'debug' });
for (const level of ['debug', 'info', 'warn', 'error'] as const)
  logger[level] = ((fields: object, msg: string) => void lines.push({ level, ...fields, msg })) as never;
const identity: Identity = { cachedAccount: () => undefined, authenticate: async () => null, findAccount: async () => null };
const now = () => new Date('2025-07-01T00:00:00Z');
const failingUsers = {
  authenticate: async () => {
    throw new Error('the users table is gone');
  },
} as unknown as ArchiveUserStore;
const routes = archiveRoutes({
  users: failingUsers,
  blocks: {} as SevereEventBlocks,
  reports: {} as IngestedReportSource,
  trustedProxies: [],
  vendor: 'fieldcast',
  now,
});
const deps: HttpDeps = { identity, logger, vendor: 'fieldcast', bodyLimit: '1mb', now, ready: async () => ({}) };
const app = createServiceApp({ area: 'archive', title: 'Archive', description: 'faults', needs: {}, api: () => routes }, deps);

it('a fault of the archive is one error line with its request id and stack', async () => {
  const res = await request(app).get('/v2/hailsize/summary/+41.5-093.6/2025-06-30').query({ u: 'ada', t: 'x' });
  expect(res.status).toBe(500);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    level: 'error',
    msg: 'request failed',
    requestId: res.headers['x-request-id'],
    status: 500,
    err: { message: 'the users table is gone' },
  });
  expect((lines[0]!.err as Error).stack).toContain('the users table is gone');
});
