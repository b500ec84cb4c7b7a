import request from 'supertest';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import type { ChillQuery, DegreeDayQuery } from '@fieldcast/schemas';
import { type GridSource, ReloadingSource, SyntheticSource } from '@fieldcast/weather';
import { agricultureService } from '../src/definition.js';
import { chillPointKey, degreeDayPointKey } from '../src/point-results.js';

/*
 * Results at points are kept once computed, until the forecast boundary moves on at the whole
 * hour (src/point-results.ts), for single requests and batches alike. The source is wrapped so
 * its point reads are counted; it is not a SyntheticSource to compute threads, so batches are
 * computed in this process, where the count sees them.
 */
let nowMs = Date.UTC(2024, 11, 15, 12, 10);
const synthetic = new SyntheticSource({ now: () => nowMs });
const reads = { pointSeries: 0, dailyExtremesAt: 0 };
const source = new Proxy(synthetic, {
  getPrototypeOf: () => Object.prototype,
  get(target, name, receiver) {
    if (name === 'dailyExtremesAtPoints') {
      // points read together count one read each (docs/decisions/0306-batch-points-read-together.md)
      return (lons: Float64Array, ...rest: unknown[]) => {
        reads.dailyExtremesAt += lons.length;
        return (target[name] as (...a: unknown[]) => unknown).apply(target, [lons, ...rest]);
      };
    }
    if (name === 'pointSeries' || name === 'dailyExtremesAt') {
      return (...args: unknown[]) => {
        reads[name]++;
        return (target[name] as (...a: unknown[]) => unknown).apply(target, args);
      };
    }
    const value = Reflect.get(target, name, receiver) as unknown;
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  },
}) as GridSource;

let fleet: TestFleet;
let alice: TestAccount;
const get = (path: string) => request(fleet.app('agriculture')).get(path).set('Authorization', alice.auth);
const post = (path: string, body: object) => request(fleet.app('agriculture')).post(path).set('Authorization', alice.auth).send(body);

beforeAll(async () => {
  fleet = await startTestFleet([agricultureService], { weather: source, now: () => new Date(nowMs) });
  alice = await fleet.account('alice-point-results');
});
afterAll(async () => {
  await fleet.close();
});

it('chill: the same point, model and dates are read once within the hour, and again after it', async () => {
  const path = '/chill/44.27/10.61?model=dynamic&start=2024-11-01&end=2024-12-14';
  const first = await get(path);
  expect(first.status).toBe(200);
  expect(reads.pointSeries).toBe(1);
  expect((await get(path)).body).toEqual(first.body);
  expect(reads.pointSeries).toBe(1);
  // another model, range or daily choice is another key
  await get(`${path}&include=daily`);
  await get(path.replace('dynamic', 'utah'));
  expect(reads.pointSeries).toBe(3);
  nowMs += 3_600_000; // the forecast boundary moves on
  expect((await get(path)).body).toEqual(first.body);
  expect(reads.pointSeries).toBe(4);
});

it('degree days: a batch reads only the points not kept, each once, and keeps them for single requests', async () => {
  const query = 'start=2024-04-01&end=2024-10-17&method=single-sine&cap=30';
  const single = await get(`/growing-degree-days/42.0308/-93.6319?${query}`);
  expect(single.status).toBe(200);
  expect(reads.dailyExtremesAt).toBe(1);
  const locations = [
    [-93.6319, 42.0308],
    [-121.74, 38.54],
    [-121.74, 38.54],
    [10.61, 44.27],
  ];
  const batch = await post(`/growing-degree-days/batch?${query}`, { locations });
  expect(batch.status).toBe(200);
  expect(batch.body.results[0]).toEqual(single.body);
  expect(batch.body.results[2]).toEqual(batch.body.results[1]);
  expect(reads.dailyExtremesAt).toBe(3); // the two new places
  expect((await post(`/growing-degree-days/batch?${query}`, { locations })).body).toEqual(batch.body);
  expect((await get(`/growing-degree-days/44.27/10.61?${query}`)).body).toEqual(batch.body.results[3]);
  expect(reads.dailyExtremesAt).toBe(3);
  // another query is another key
  await post(`/growing-degree-days/batch?${query}&cutoff=vertical`, { locations });
  expect(reads.dailyExtremesAt).toBe(6);
});

it('a result is kept for the weather served: a reload of the synced stores moves every key, though the stores keep their names', async () => {
  let stamp = 'before';
  const weather = await ReloadingSource.open({ stamp: async () => stamp, load: async () => synthetic, dropped: () => [] });
  const degreeDays = { base: 10, scale: 'celsius', start: '2024-05-01', end: '2024-09-30', method: 'average' } as unknown as DegreeDayQuery;
  const chill = { model: 'utah', end: '2024-12-14' } as unknown as ChillQuery;
  const keys = () => [degreeDayPointKey(weather, 44.27, 10.61, degreeDays, nowMs), chillPointKey(weather, 44.27, 10.61, chill, nowMs)];
  const before = keys();
  stamp = 'after';
  expect(await weather.reload()).toBe(true);
  expect(weather.id).toBe(synthetic.id);
  const after = keys();
  expect(after.map((k, i) => k === before[i])).toEqual([false, false]);
});
