import { join } from 'node:path';
import type { WorkerOptions } from 'node:worker_threads';

/** What a thread runs: a module file, or code to evaluate with `{ eval: true }`. */
export interface WorkerEntry {
  filename: URL | string;
  options?: WorkerOptions;
}

/**
 * A thread module of an area: `src/<name>.ts` in the area's folder, declared in its service
 * definition's `workers` so scripts/build.ts bundles it as `<area>-<name>.js` beside cli.js.
 */
export interface AreaWorker {
  area: string;
  name: string;
}

/** The bundle a worker is built into beside cli.js (scripts/build.ts), without its `.js`. */
export function workerBundleName({ area, name }: AreaWorker): string {
  return `${area}-${name}`;
}

/**
 * A service's thread module (docs/decisions/0051-heavy-work-in-worker-threads.md), named from the
 * module that starts it (`importMetaUrl`), which sits beside it in the area's `src/`. In the
 * bundle, the worker bundle written beside cli.js (scripts/build.ts). From the TypeScript sources
 * (tsx, Jest), the bundle in FIELDCAST_WORKER_BUNDLES where the test suites made them from these
 * sources (scripts/test-fixtures.ts); else the source module beside the caller, behind a line
 * that first registers tsx's loader in the new thread: on Node 20 a thread gets no loader hooks
 * from its parent, and `--import` in a thread's execArgv does not add them.
 */
export function workerModule(importMetaUrl: string, worker: AreaWorker): WorkerEntry {
  if (!importMetaUrl.endsWith('.ts')) return { filename: new URL(`./${workerBundleName(worker)}.js`, importMetaUrl) };
  const bundles = process.env.FIELDCAST_WORKER_BUNDLES;
  if (bundles) return { filename: join(bundles, `${workerBundleName(worker)}.js`) };
  const module = JSON.stringify(new URL(`./${worker.name}.ts`, importMetaUrl).href);
  return { filename: `import('tsx/esm/api').then(({ register }) => { register(); return import(${module}); });`, options: { eval: true } };
}
