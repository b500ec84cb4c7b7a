import { join } from 'node:path';
import { workerModule } from '../src/workers/index.js';

/* Which module a service's thread runs (docs/decisions/0051-heavy-work-in-worker-threads.md). */
const worker = { area: 'area', name: 'x-worker' };

describe('workerModule', () => {
  it('from the bundle: the worker bundle beside cli.js, loaded as a file', () => {
    expect(workerModule('file:///srv/fieldcast/dist/cli.js', worker)).toEqual({
      filename: new URL('file:///srv/fieldcast/dist/area-x-worker.js'),
    });
  });

  it('from the sources in the test suites: the bundle the suite made of them (FIELDCAST_WORKER_BUNDLES), loaded as a file', () => {
    expect(process.env.FIELDCAST_WORKER_BUNDLES).toMatch(/test-output\/workers-[0-9a-f]{16}$/);
    expect(workerModule('file:///repo/services/x/src/x-compute.ts', worker)).toEqual({
      filename: join(process.env.FIELDCAST_WORKER_BUNDLES!, 'area-x-worker.js'),
    });
  });

  it('from the sources: code that registers tsx in the thread, then imports the module beside the caller', () => {
    const bundles = process.env.FIELDCAST_WORKER_BUNDLES;
    delete process.env.FIELDCAST_WORKER_BUNDLES;
    let entry;
    try {
      entry = workerModule('file:///repo/services/x/src/x-compute.ts', worker);
    } finally {
      process.env.FIELDCAST_WORKER_BUNDLES = bundles;
    }
    expect(entry.options).toEqual({ eval: true });
    expect(entry.filename).toBe(
      `import('tsx/esm/api').then(({ register }) => { register(); return import("file:///repo/services/x/src/x-worker.ts"); });`,
    );
  });
});
