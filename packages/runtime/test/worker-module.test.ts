import { workerModule } from '../src/workers/index.js';

/* Which module a service's thread runs (docs/decisions/0051-heavy-work-in-worker-threads.md). */
const worker = { area: 'area', name: 'x-worker' };

describe('workerModule', () => {
  it('from the bundle: the worker bundle beside cli.js, loaded as a file', () => {
    expect(workerModule('file:///srv/fieldcast/dist/cli.js', worker)).toEqual({
      filename: new URL('file:///srv/fieldcast/dist/area-x-worker.js'),
    });
  });

  it('from the sources: code that registers tsx in the thread, then imports the module beside the caller', () => {
    const entry = workerModule('file:///repo/services/x/src/x-compute.ts', worker);
    expect(entry.options).toEqual({ eval: true });
    expect(entry.filename).toBe(
      `import('tsx/esm/api').then(({ register }) => { register(); return import("file:///repo/services/x/src/x-worker.ts"); });`,
    );
  });
});
