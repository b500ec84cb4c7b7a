import { workerModule } from '../src/workers/index.js';

/* Which module a service's thread runs (docs/decisions/0051-heavy-work-in-worker-threads.md). */
const paths = { source: './x-worker.ts', bundle: './area-x-worker.js' };

describe('workerModule', () => {
  it('from the bundle: the worker bundle beside cli.js, loaded as a file', () => {
    expect(workerModule('file:///srv/fieldcast/dist/cli.js', paths)).toEqual({
      filename: new URL('file:///srv/fieldcast/dist/area-x-worker.js'),
    });
  });

  it('from the sources: code that registers tsx in the thread, then imports the module beside the caller', () => {
    const entry = workerModule('file:///repo/services/x/src/x-compute.ts', paths);
    expect(entry.options).toEqual({ eval: true });
    expect(entry.filename).toBe(
      `import('tsx/esm/api').then(({ register }) => { register(); return import("file:///repo/services/x/src/x-worker.ts"); });`,
    );
  });
});
