import request from 'supertest';
import type { TestAccount } from '@fieldcast/runtime/testing';

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
