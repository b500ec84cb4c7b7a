import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { MakingTimes } from '../src/domain/making-times.js';
import { binary, countingSource, pathOf, PRODUCT, TestClock, testCatalog, testTransferService } from './helpers.js';

// The dataset list's estimate of how long a file not made yet will take
// (docs/decisions/0320-dataset-list-says-how-long-a-file-takes.md).

describe('MakingTimes', () => {
  let ms = 0;
  const times = () => new MakingTimes(() => ms);
  beforeEach(() => {
    ms = 1_000;
  });

  it('has no estimate before anything is measured', () => {
    expect(times().estimateMs('k', 'p', 1_000)).toBeUndefined();
  });

  it('estimates from the product’s makings per value, then from any product’s', () => {
    const t = times();
    t.started('a', 'daily', 1_000);
    ms += 4_000;
    t.ended('a', true);
    // 4 ms a value over the product's one making
    expect(t.estimateMs('b', 'daily', 500)).toBe(2_000);
    t.started('c', 'hourly', 2_000);
    ms += 2_000;
    t.ended('c', true);
    expect(t.estimateMs('d', 'hourly', 3_000)).toBe(3_000);
    // A product never made: every making, 6,000 ms over 3,000 values
    expect(t.estimateMs('e', 'static', 100)).toBe(200);
  });

  it('counts a failed making for nothing', () => {
    const t = times();
    t.started('a', 'daily', 1_000);
    ms += 4_000;
    t.ended('a', false);
    expect(t.estimateMs('b', 'daily', 500)).toBeUndefined();
  });

  it('gives what is left of a making under way, from its rows written since the first', () => {
    const t = times();
    t.started('a', 'daily', 1_000);
    // the thread's start and the first row (cold caches) are not the pace of the rest
    ms += 5_000;
    t.progress('a', 0.05);
    expect(t.estimateMs('a', 'daily', 1_000)).toBeUndefined();
    ms += 3_000;
    t.progress('a', 0.3);
    // a quarter in 3 s: 0.7 left, 8.4 s
    expect(t.estimateMs('a', 'daily', 1_000)).toBeCloseTo(8_400, 6);
    // and the rate under way estimates another file of any product: 3 s over 250 values
    expect(t.estimateMs('b', 'hourly', 500)).toBeCloseTo(6_000, 6);
  });

  it('takes a product’s latest makings: a machine whose load changes shows in a few files', () => {
    const t = times();
    for (let i = 0; i < 8; i++) {
      t.started(`slow${i}`, 'daily', 1_000);
      ms += 10_000;
      t.ended(`slow${i}`, true);
    }
    for (let i = 0; i < 8; i++) {
      t.started(`fast${i}`, 'daily', 1_000);
      ms += 1_000;
      t.ended(`fast${i}`, true);
    }
    expect(t.estimateMs('x', 'daily', 1_000)).toBe(1_000);
  });
});

describe('the dataset list', () => {
  const clock = new TestClock();
  const { source } = countingSource(clock);
  const ctx = useTestFleet([testTransferService()], { weather: source, now: clock.now, catalog: testCatalog() });
  const list = async (date: string) => {
    const res = await request(ctx.fleet.app('transfer'))
      .get(`/products/${PRODUCT.tmax}/datasets?date=${date}`)
      .set('Authorization', ctx.alice.auth);
    expect(res.status).toBe(200);
    return res.body[0] as { downloadUrl: string; readyInSeconds?: number; size?: number };
  };

  it('says how long a file not made yet will take once the service has measured a making, and nothing once it is made', async () => {
    const first = await list('2024-06-01');
    expect(first.readyInSeconds).toBeUndefined();
    const res = await request(ctx.fleet.app('transfer')).get(pathOf(first.downloadUrl)).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    const made = await list('2024-06-01');
    expect(made.size).toBe(res.body.length);
    expect(made.readyInSeconds).toBeUndefined();
    const other = await list('2024-06-02');
    expect(other.size).toBeUndefined();
    expect(Number.isInteger(other.readyInSeconds)).toBe(true);
    expect(other.readyInSeconds).toBeGreaterThanOrEqual(1);
  });
});
