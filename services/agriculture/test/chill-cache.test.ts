import request from 'supertest';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { type GridSource, SyntheticSource } from '@fieldcast/weather';
import { agricultureService } from '../src/definition.js';

/* Chill at a point is kept once computed, until the forecast boundary moves on at the whole hour (src/chill-cache.ts). */
let nowMs = Date.UTC(2024, 11, 15, 12, 10);
const synthetic = new SyntheticSource({ now: () => nowMs });
let reads = 0;
const source = new Proxy(synthetic, {
  get(target, name, receiver) {
    if (name === 'pointSeries') {
      return (...args: Parameters<GridSource['pointSeries']>) => {
        reads++;
        return target.pointSeries(...args);
      };
    }
    const value = Reflect.get(target, name, receiver) as unknown;
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  },
});

let fleet: TestFleet;
let alice: TestAccount;
const get = (path: string) => request(fleet.app('agriculture')).get(path).set('Authorization', alice.auth);

beforeAll(async () => {
  fleet = await startTestFleet([agricultureService], { weather: source, now: () => new Date(nowMs) });
  alice = await fleet.account('alice-chill-cache');
});
afterAll(async () => {
  await fleet.close();
});

it('the same point, model and dates are read once within the hour, and again after it', async () => {
  const path = '/chill/44.27/10.61?model=dynamic&start=2024-11-01&end=2024-12-14';
  const first = await get(path);
  expect(first.status).toBe(200);
  expect(reads).toBe(1);
  expect((await get(path)).body).toEqual(first.body);
  expect(reads).toBe(1);
  // another model, range or daily choice is another key
  await get(`${path}&include=daily`);
  await get(path.replace('dynamic', 'utah'));
  expect(reads).toBe(3);
  nowMs += 3_600_000; // the forecast boundary moves on
  expect((await get(path)).body).toEqual(first.body);
  expect(reads).toBe(4);
});
