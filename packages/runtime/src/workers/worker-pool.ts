import { Worker } from 'node:worker_threads';
import { PRESTARTED, type WorkerReply } from './compute-thread.js';
import { reviveError } from './worker-errors.js';
import type { WorkerEntry } from './worker-module.js';

interface Job<Task, Result> {
  task: Task;
  resolve(result: Result): void;
  reject(err: unknown): void;
}

/**
 * A fixed number of worker threads running one module, created on the first task, each running
 * one task at a time; tasks wait in order for a free thread. Threads are unreferenced, so an idle
 * pool never keeps the process alive, and `close` ends them. A thread that dies fails its task
 * and is replaced on the next one.
 */
export class WorkerPool<Task, Result> {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job<Task, Result>>();
  private readonly queue: Job<Task, Result>[] = [];
  private closed = false;

  constructor(
    /** the thread's module, or code to evaluate with `{ eval: true }` */
    private readonly entry: WorkerEntry,
    readonly size: number,
    /** turns an error posted by a worker back into the error it was */
    private readonly revive: (error: Record<string, unknown>) => unknown,
    /**
     * what every thread receives as workerData: read-only data the process made once (a
     * SharedArrayBuffer in it is shared, not copied), so threads do not each make it again
     */
    private readonly workerData: Record<string, unknown> = {},
  ) {}

  run(task: Task): Promise<Result> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.next();
    });
  }

  /** Threads started and waiting for a task now: what a batch may spread over (inParts). */
  idleThreads(): number {
    return this.closed ? 0 : this.idle.length;
  }

  /** Starts every thread now, idle, so the first tasks do not wait for threads to load their modules. */
  prestart(): void {
    while (!this.closed && this.idle.length + this.busy.size < this.size) this.idle.push(this.spawn(true));
  }

  /** Ends every thread; tasks still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.busy.values()];
    const all = [...this.idle.splice(0), ...this.busy.keys()];
    this.busy.clear();
    for (const job of [...this.queue.splice(0), ...running]) job.reject(new Error('the worker pool closed'));
    await Promise.all(all.map((w) => w.terminate()));
  }

  private next(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.busy.size < this.size ? this.spawn(false) : undefined);
      if (!worker) return;
      const job = this.queue.shift()!;
      this.busy.set(worker, job);
      worker.postMessage(job.task);
    }
  }

  private spawn(prestarted: boolean): Worker {
    // workerData is always an object: web-worker (a dependency of geotiff, loaded with the weather
    // package) reads its own settings from any thread's workerData and fails on undefined.
    const worker = new Worker(this.entry.filename, { workerData: { ...this.workerData, [PRESTARTED]: prestarted }, ...this.entry.options });
    worker.unref();
    worker.on('message', (reply: WorkerReply<Result>) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      if (!this.closed) this.idle.push(worker);
      if (job) {
        if (reply.ok) job.resolve(reply.result);
        else job.reject(this.revive(reply.error));
      }
      this.next();
    });
    const fail = (err: Error) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      job?.reject(err);
      this.next();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`a compute worker exited with code ${code}`));
    });
    return worker;
  }
}

/** A service's compute threads: a pool made on the first task, whose errors are revived as the domain errors they were. */
export interface ComputePool<Task, Result> {
  run: (task: Task) => Promise<Result>;
  /** makes the pool and starts its threads before the first task (a service's warm-up) */
  prestart: () => void;
  /** ends the threads, if any were started; a later task starts a new pool */
  close: () => Promise<void>;
  /** threads started and idle now; 0 before the pool is made */
  idleThreads: () => number;
}

/**
 * `shared` makes, when the pool is made, the workerData its threads share read-only (for the
 * synthetic world, `syntheticWorldForThreads` of `@fieldcast/weather/synthetic`).
 */
export function computePool<Task, Result>(
  entry: WorkerEntry,
  size: number,
  shared: () => Record<string, unknown> = () => ({}),
): ComputePool<Task, Result> {
  let pool: WorkerPool<Task, Result> | undefined;
  const made = () => (pool ??= new WorkerPool<Task, Result>(entry, size, reviveError, shared()));
  return {
    run: (task) => made().run(task),
    prestart: () => made().prestart(),
    idleThreads: () => pool?.idleThreads() ?? 0,
    async close() {
      const closing = pool;
      pool = undefined;
      await closing?.close();
    },
  };
}
