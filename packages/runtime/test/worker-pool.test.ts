import { NotFoundError } from '@fieldcast/kit';
import { computePool, WorkerPool } from '../src/workers/index.js';
import { PRESTARTED } from '../src/workers/compute-thread.js';

/*
 * The pool on threads that evaluate a few lines of JavaScript: each task is { wait, value } or
 * { fail } or { die }; the reply echoes the value and the thread that computed it.
 */
const CODE = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', (task) => {
  if (task.die) process.exit(3);
  setTimeout(() => {
    if (task.fail) parentPort.postMessage({ ok: false, error: { name: 'Failure', message: task.fail } });
    else parentPort.postMessage({ ok: true, result: { value: task.value, thread: threadId } });
  }, task.wait ?? 0);
});`;
type Task = { wait?: number; value?: number; fail?: string; die?: boolean };
type Result = { value: number; thread: number };
const pool = (size: number) =>
  new WorkerPool<Task, Result>({ filename: CODE, options: { eval: true } }, size, (e) => new Error(`revived ${String(e.message)}`));

describe('WorkerPool', () => {
  it('runs tasks on at most `size` threads, in order, and answers each its own result', async () => {
    const p = pool(2);
    const results = await Promise.all([1, 2, 3, 4, 5].map((value) => p.run({ wait: 20, value })));
    expect(results.map((r) => r.value)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(results.map((r) => r.thread)).size).toBe(2);
    await p.close();
  });

  it('a failure posted by a thread is revived; a thread that dies fails its task and is replaced', async () => {
    const p = pool(1);
    await expect(p.run({ fail: 'no data' })).rejects.toThrow('revived no data');
    const before = (await p.run({ value: 1 })).thread;
    await expect(p.run({ die: true })).rejects.toThrow('a compute worker exited with code 3');
    const after = await p.run({ value: 2 });
    expect(after.value).toBe(2);
    expect(after.thread).not.toBe(before);
    await p.close();
  });

  it('close ends the threads and fails what waits; later tasks are refused', async () => {
    const p = pool(1);
    const running = p.run({ wait: 5_000, value: 1 });
    const waiting = p.run({ value: 2 });
    const refused = [expect(running).rejects.toThrow('the worker pool closed'), expect(waiting).rejects.toThrow('the worker pool closed')];
    await new Promise((resolve) => setTimeout(resolve, 100));
    await p.close();
    await Promise.all(refused);
    await expect(p.run({ value: 3 })).rejects.toThrow('the worker pool is closed');
  });
});

describe('WorkerPool.prestart', () => {
  it('starts every thread before the first task, and no more than `size`', async () => {
    // Each thread counts itself in a shared counter as its module loads.
    const loaded = new Int32Array(new SharedArrayBuffer(4));
    const counting = `Atomics.add(new Int32Array(require('node:worker_threads').workerData.loaded), 0, 1);\n${CODE}`;
    const p = new WorkerPool<Task, Result>(
      { filename: counting, options: { eval: true, workerData: { loaded: loaded.buffer } } },
      2,
      (e) => new Error(String(e.message)),
    );
    p.prestart();
    p.prestart();
    for (let waited = 0; Atomics.load(loaded, 0) < 2 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Atomics.load(loaded, 0)).toBe(2);
    const results = await Promise.all([1, 2, 3].map((value) => p.run({ wait: 20, value })));
    expect(new Set(results.map((r) => r.thread)).size).toBe(2);
    expect(Atomics.load(loaded, 0)).toBe(2);
    await p.close();
  });
});

describe('WorkerPool.idleThreads', () => {
  it('counts the threads started and waiting: none before they start, one less while a task runs, none once closed', async () => {
    const threads = computePool<Task, Result>({ filename: CODE, options: { eval: true } }, 2);
    expect(threads.idleThreads()).toBe(0);
    threads.prestart();
    expect(threads.idleThreads()).toBe(2);
    const running = threads.run({ wait: 200, value: 1 });
    expect(threads.idleThreads()).toBe(1);
    await running;
    expect(threads.idleThreads()).toBe(2);
    await threads.close();
    expect(threads.idleThreads()).toBe(0);
  });
});

describe('PRESTARTED', () => {
  it('tells a thread the warm-up started so (serveTasks then warms it), and not one a task started', async () => {
    const telling = `const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', () => parentPort.postMessage({ ok: true, result: { value: workerData['${PRESTARTED}'] ? 1 : 0, thread: 0 } }));`;
    const make = () => new WorkerPool<Task, Result>({ filename: telling, options: { eval: true } }, 1, (e) => new Error(String(e.message)));
    const byTask = make();
    expect((await byTask.run({})).value).toBe(0);
    const ahead = make();
    ahead.prestart();
    expect((await ahead.run({})).value).toBe(1);
    await Promise.all([byTask.close(), ahead.close()]);
  });
});

describe('computePool', () => {
  it('revives a posted domain error as its class; after close a task starts a new pool', async () => {
    const threads = computePool<Task, Result>({ filename: CODE, options: { eval: true } }, 1);
    const before = await threads.run({ value: 1 });
    await threads.close();
    const after = await threads.run({ value: 2 });
    expect(after.value).toBe(2);
    expect(after.thread).not.toBe(before.thread);
    const notFound = { name: 'NotFoundError', message: 'no field f', kind: 'field', ref: 'f' };
    const revived = computePool<Task, Result>(
      { filename: CODE.replace("name: 'Failure'", '...' + JSON.stringify(notFound)), options: { eval: true } },
      1,
    );
    await expect(revived.run({ fail: 'no field f' })).rejects.toBeInstanceOf(NotFoundError);
    await Promise.all([threads.close(), revived.close()]);
  });
});

describe('computePool shared workerData', () => {
  it('makes the shared data once per pool and hands every thread the same memory, not a copy', async () => {
    // Each thread marks its slot in the shared array; the marks are visible here only if the
    // threads were handed this process's SharedArrayBuffer rather than data of their own.
    const marks = new Int32Array(new SharedArrayBuffer(8));
    let made = 0;
    const marking = `{ const { workerData, threadId } = require('node:worker_threads');
      Atomics.add(workerData.marks, 1, 1); Atomics.store(workerData.marks, 0, threadId); }\n${CODE}`;
    const threads = computePool<Task, Result>({ filename: marking, options: { eval: true } }, 2, () => {
      made += 1;
      return { marks };
    });
    const results = await Promise.all([1, 2, 3].map((value) => threads.run({ wait: 20, value })));
    expect(made).toBe(1);
    expect(Atomics.load(marks, 1)).toBe(2);
    expect(results.map((r) => r.thread)).toContain(Atomics.load(marks, 0));
    await threads.close();
  });
});
