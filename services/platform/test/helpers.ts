import request from 'supertest';
import type { TestAccount, TestContext } from '@fieldcast/runtime/testing';
import { productGrantsCommand } from '../src/grants.js';

/** The clock every platform test reads: 2025-06-15 10:20 UTC unless a test moves it. */
export const START = Date.UTC(2025, 5, 15, 10, 20);
export const clock = { ms: START };
export const now = () => new Date(clock.ms);

export const H = 3_600_000;

export function get(t: TestContext, account: TestAccount, path: string) {
  return request(t.fleet.app('platform')).get(path).set('Authorization', account.auth);
}

export const names = (body: { name: string }[]) => body.map((p) => p.name);

/** The default catalog's public products, in catalog order. */
export const PUBLIC_PRODUCTS = [
  'air-temperature',
  'air-temperature-daily-max',
  'air-temperature-daily-min',
  'precipitation-rate',
  'growing-degree-days',
  'relative-humidity',
  'evapotranspiration-short-crop',
  'shortwave-radiation',
  'precipitation-rate-north-america',
  'surface-altitude',
];

export const RESTRICTED = 'dew-point-temperature';

/** `fieldcast products <args>` on the test fleet's platform area, knowing `syncedSources`: the lines it prints. */
export async function grantsCli(t: TestContext, syncedSources: readonly string[], ...args: string[]): Promise<string[]> {
  const out: string[] = [];
  await productGrantsCommand(
    args,
    {
      knex: t.fleet.db.knex,
      catalog: t.fleet.deps('platform').catalog!,
      outbox: t.fleet.deps('platform').outbox!,
      identity: t.fleet.identity,
      syncedSources,
    },
    (line) => out.push(line),
  );
  return out;
}
