import request from 'supertest';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { createTransferService } from '../src/definition.js';
import { binary, countingSource, pathOf, PRODUCT, TestClock, testCatalog } from './helpers.js';

// A file not made within the wait is 503 with Retry-After, and is still made for the next request.
const clock = new TestClock();
const { source } = countingSource(clock);
const ctx = useTestFleet([createTransferService({ threads: false, waitSeconds: 0 })], {
  weather: source,
  catalog: testCatalog(),
  now: clock.now,
});

it('answers 503 dataset_being_made with Retry-After while the file is made, then the file', async () => {
  const app = ctx.fleet.app('transfer');
  const list = await request(app).get(`/products/${PRODUCT.hourly}/datasets?date=2024-06-02`).set('Authorization', ctx.alice.auth);
  const path = pathOf(list.body[0].downloadUrl);
  const first = await request(app).get(path);
  expect(first.status).toBe(503);
  expect(first.headers['retry-after']).toBe('30');
  expect(first.body.id).toBe('dataset_being_made');
  await eventually(
    async () => {
      const res = await request(app).get(path).buffer(true).parse(binary);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-netcdf');
    },
    60_000,
    200,
  );
});
