import request from 'supertest';
import type { TestContext } from '@fieldcast/runtime/testing';
import { ArchiveUserStore } from '../src/store.js';

/** The instant the tests' fleet calls now: after the 2025 storm season the tests read. */
export const NOW = new Date('2025-07-01T00:00:00Z');
/** A storm day of the synthetic world over western Oklahoma (found by reading its events). */
export const STORM_POINT = '+36.1500-098.7000';
export const STORM_DAY = '2025-04-22';
/** Where tests run supertest from: the loopback, as IPv4 or as IPv6 depending on the host. */
export const LOOPBACK = ['127.0.0.1/32', '::1/128'];

export async function register(t: TestContext, name: string, ranges = LOOPBACK, types?: string[]) {
  return new ArchiveUserStore(t.fleet.db.knex).register({ name, ranges, ...(types ? { types } : {}) });
}

/** GET an archive path with the user's credentials added to the query. */
export function get(t: TestContext, path: string, creds?: { name: string; token: string }, query: Record<string, string> = {}) {
  const q = { ...(creds ? { u: creds.name, t: creds.token } : {}), ...query };
  return request(t.fleet.app('archive')).get(path).query(q);
}
