import type { Logger } from '@fieldcast/kit';

/**
 * Clock-driven work a service declares (docs/decisions/0180-background-tasks.md): the runtime,
 * not the service's `api`, runs it. A pass is given the service's clock reading, so a test's
 * clock drives it like requests.
 */
export interface BackgroundTask {
  /** names the task in logs and when a test runs it by hand; unique within its service */
  name: string;
  /** the pause between the end of one pass and the start of the next */
  everyMs: number;
  /** one pass; a throw is logged and the next pass tries again */
  run(nowMs: number): Promise<void>;
}

/**
 * A service's tasks as the runtime runs them: one pass at a time per task, whether the timer or
 * a test started it; timers unref'd, so they never keep a process alive; `stop` awaits the pass
 * under way and no pass starts after it.
 */
export class BackgroundTasks {
  private readonly slots: TaskSlot[];
  private stopped = false;

  constructor(
    tasks: readonly BackgroundTask[],
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {
    const names = new Set<string>();
    for (const task of tasks) {
      if (names.has(task.name)) throw new Error(`background task ${task.name} is declared twice`);
      if (!(Number.isFinite(task.everyMs) && task.everyMs > 0)) throw new Error(`background task ${task.name} needs everyMs > 0`);
      names.add(task.name);
    }
    this.slots = tasks.map((task) => ({ task, timer: null, under: Promise.resolve() }));
  }

  /** the declared tasks' names */
  get names(): string[] {
    return this.slots.map((s) => s.task.name);
  }

  /** Runs every task on its own clock, the first pass at once. */
  start(): void {
    if (this.stopped) return;
    for (const slot of this.slots) this.schedule(slot, 0);
  }

  /**
   * One pass of the named task (or of each, in declaration order) now, after the pass under way;
   * unlike a timed pass, its failure is thrown to the caller (tests run passes by hand).
   */
  async runOnce(name?: string): Promise<void> {
    const slots = name === undefined ? this.slots : this.slots.filter((s) => s.task.name === name);
    if (name !== undefined && slots.length === 0) throw new Error(`no background task named ${name}; there are: ${this.names.join(', ')}`);
    for (const slot of slots) await this.pass(slot, true);
  }

  /** Stops the timers and awaits the passes under way; no pass starts after. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
    }
    await Promise.all(this.slots.map((s) => s.under.catch(() => undefined)));
  }

  private schedule(slot: TaskSlot, delayMs: number): void {
    slot.timer = setTimeout(() => {
      slot.timer = null;
      this.pass(slot, false)
        .catch((err: unknown) => this.logger.error({ err, task: slot.task.name }, 'background pass failed; the next one tries again'))
        .finally(() => {
          if (!this.stopped) this.schedule(slot, slot.task.everyMs);
        });
    }, delayMs);
    slot.timer.unref();
  }

  /** Queues a pass behind the one under way; a stopped runner starts none (and says so to a caller by hand). */
  private pass(slot: TaskSlot, byHand: boolean): Promise<void> {
    const run = slot.under
      .catch(() => undefined)
      .then(async () => {
        if (!this.stopped) return slot.task.run(this.now().getTime());
        if (byHand) throw new Error(`background task ${slot.task.name} is stopped`);
      });
    slot.under = run;
    return run;
  }
}

interface TaskSlot {
  task: BackgroundTask;
  timer: NodeJS.Timeout | null;
  /** the last pass queued; the next waits for it */
  under: Promise<void>;
}
