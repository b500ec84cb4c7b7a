import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { datasetsOfDay, dayStart, servedProducts } from '../src/domain/datasets.js';
import { produceDatasetFile } from '../src/domain/produce.js';
import { binary, countingSource, pathOf, PRODUCT, TestClock, testCatalog, testTransferService } from './helpers.js';

// Files made in a worker thread (docs/decisions/0051-heavy-work-in-worker-threads.md): the
// thread opens the same weather, so its file is byte for byte the one made inline.
const clock = new TestClock(Date.now());
const { source, reads } = countingSource(clock);
const ctx = useTestFleet([testTransferService(true)], { weather: source, catalog: testCatalog() });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'transfer-worker-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('makes the file in a worker thread, the same bytes as on the event loop', async () => {
  const list = await request(ctx.fleet.app('transfer'))
    .get(`/products/${PRODUCT.extremesNc}/datasets?date=2023-01-15`)
    .set('Authorization', ctx.alice.auth);
  const before = reads();
  const res = await request(ctx.fleet.app('transfer')).get(pathOf(list.body[0].downloadUrl)).buffer(true).parse(binary);
  expect(res.status).toBe(200);
  // Nothing was read from the weather on this thread.
  expect(reads()).toBe(before);

  const product = servedProducts(testCatalog(), source).find((p) => p.def.name === PRODUCT.extremesNc)!;
  const path = join(dir, 'inline.nc');
  const shares: number[] = [];
  await produceDatasetFile(datasetsOfDay(product, dayStart('2023-01-15'), source, clock.ms)[0]!, source, path, (done) => shares.push(done));
  const inline = readFileSync(path);
  expect(res.headers.etag).toBe(`"${createHash('sha256').update(inline).digest('hex')}"`);
  // Progress is told row by row, to the whole file (the list's estimates: making-times.ts).
  expect(shares).toHaveLength(product.grid.lats.length);
  expect(shares.at(-1)).toBe(1);
  // The thread's making was timed: the list estimates a file of the next day from it.
  const next = await request(ctx.fleet.app('transfer'))
    .get(`/products/${PRODUCT.extremesNc}/datasets?date=2023-01-16`)
    .set('Authorization', ctx.alice.auth);
  expect(next.body[0].readyInSeconds).toBeGreaterThanOrEqual(1);
  // The thread loads the weather anew and runs at nice 10 (dataset-worker.ts): tens of seconds on a busy machine.
}, 120_000);
