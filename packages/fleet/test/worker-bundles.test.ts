import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { workerModule } from '@fieldcast/runtime/workers';
import { SERVICES } from '../src/services.js';

/*
 * The test suites' compute threads load the bundles their global setup made of the sources
 * (scripts/test-fixtures.ts, docs/decisions/0071-test-fixtures-once-per-run.md): one for every
 * thread module an area declares, beside the geography grid the bundles read.
 */
describe('the test suites’ thread bundles', () => {
  const declared = SERVICES.flatMap((s) => (s.workers ?? []).map((w) => ({ area: s.area, worker: w })));

  it('exist for every thread module an area declares', () => {
    expect(declared.length).toBeGreaterThan(0);
    for (const { area, worker } of declared) {
      const from = new URL(`../../../services/${area}/src/definition.ts`, import.meta.url).href;
      const { filename } = workerModule(from, worker);
      expect(typeof filename === 'string' && existsSync(filename)).toBe(true);
    }
  });

  it('have the geography grid beside them', () => {
    expect(existsSync(join(process.env.FIELDCAST_WORKER_BUNDLES!, 'data', 'earth-geography.bin'))).toBe(true);
  });
});
