import { getPriority } from 'node:os';
import { NotFoundError } from '@fieldcast/kit';
import { computePool } from '../src/workers/index.js';

/*
 * A compute thread made with serveTasks (docs/decisions/0051-heavy-work-in-worker-threads.md):
 * it answers its own nice value, or fails with a NotFoundError's fields when a task asks for a field.
 */
const index = JSON.stringify(new URL('../src/workers/index.ts', import.meta.url).href);
const CODE = `
const { getPriority } = require('node:os');
const notFound = (ref) => Object.assign(new Error('no field ' + ref), { name: 'NotFoundError', kind: 'field', ref });
import('tsx/esm/api')
  .then(({ register }) => { register(); return import(${index}); })
  .then(({ serveTasks }) => serveTasks((task) => { if (task.field) throw notFound(task.field); return getPriority(); }));`;
const threads = computePool<{ field?: string }, number>({ filename: CODE, options: { eval: true } }, 1);
afterAll(() => threads.close());

describe('serveTasks', () => {
  it('answers each task; a domain error thrown in the thread is the same error here', async () => {
    await expect(threads.run({ field: 'f' })).rejects.toBeInstanceOf(NotFoundError);
    const nice = await threads.run({});
    // setpriority(2): on Linux a thread's nice value is its own, 10 above the event loop's (capped at 19)
    if (process.platform === 'linux') expect(nice).toBe(Math.min(19, getPriority() + 10));
  }, 60_000);
});

describe('serveTasks warm-up', () => {
  it('a warm-up that fails does not fail the task it ran beside', async () => {
    // A thread started ahead (prestart) warms itself; this warm-up fails while the first task,
    // sent at once, is still computing.
    const code = `
import('tsx/esm/api')
  .then(({ register }) => { register(); return import(${index}); })
  .then(({ serveTasks }) => serveTasks(
    () => new Promise((resolve) => setTimeout(() => resolve(42), 400)),
    () => new Promise((_, reject) => setTimeout(() => reject(new Error('warm-up broke')), 100)),
  ));`;
    const pool = computePool<object, number>({ filename: code, options: { eval: true } }, 1);
    pool.prestart();
    try {
      await expect(pool.run({})).resolves.toBe(42);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
