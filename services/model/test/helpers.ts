import request from 'supertest';
import { eventually, publishProductGrant, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { createCatalog } from '@fieldcast/weather';

/** What supertest serves: the service's app. */
export type App = Parameters<typeof request>[0];

export const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** A settable clock for the service (deps.now). */
export class TestClock {
  constructor(public ms: number) {}
  readonly now = () => new Date(this.ms);
  set(iso: string | number): void {
    this.ms = typeof iso === 'number' ? iso : Date.parse(iso);
  }
}

/** GET as an account, asking for version 1. */
export function get(app: App, account: TestAccount, path: string) {
  return request(app).get(path).set('Authorization', account.auth).set('Accept', JSON_V1);
}

/**
 * Publishes the state of an account's grant of the default catalog's restricted product (the
 * dewpoint's) as the platform area does (docs/decisions/0134-product-grants-published-to-the-tiles-area.md),
 * and waits until the model area's copy has it (docs/decisions/0429-model-variables-follow-product-grants.md).
 */
export async function grantRestricted(fleet: TestFleet, account: TestAccount, granted: boolean): Promise<void> {
  const product = createCatalog()
    .products()
    .find((p) => p.access === 'restricted')!;
  await publishProductGrant(fleet, account.id, product.id, granted);
  await eventually(async () => {
    const names = ((await get(fleet.app('model'), account, '/models/synthetic-global/variables')).body as { name: string }[]).map(
      (v) => v.name,
    );
    if (names.includes('dewPoint') !== granted) throw new Error(`the grant of ${account.handle} is not applied yet`);
  });
}
