import type { Logger } from '@fieldcast/kit';

/**
 * The first retry after a failed attempt, and the longest wait between two (doubling between):
 * short enough that a consumer group joins within seconds of the broker's return
 * (docs/decisions/0280-consumer-recovery-timing.md); a refused connection costs the broker nothing.
 */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 4_000;

/** Work against the broker that is retried until done, and how to end it. */
export interface Retried {
  /** stops retrying and undoes what was done (a subscription made is stopped) */
  stop(): Promise<void>;
}

/**
 * Runs `attempt` now; if it fails (the broker is down), logs it once and retries with backoff in
 * the background until it succeeds or `stop` is called. A service starts and serves meanwhile
 * (docs/architecture.md §5): what needs the broker waits, nothing else does.
 */
export async function untilDone(what: string, attempt: () => Promise<void | { stop(): Promise<void> }>, logger: Logger): Promise<Retried> {
  let done: { stop(): Promise<void> } | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const run = async (): Promise<boolean> => {
    try {
      const result = await attempt();
      if (stopped) await result?.stop();
      else done = result ?? null;
      return true;
    } catch (err) {
      logger.debug({ err, what }, 'the broker is unreachable');
      return false;
    }
  };
  if (!(await run())) {
    logger.warn({ what }, 'the broker is unreachable: serving without it; retrying in the background');
    const retry = (waitMs: number) => {
      timer = setTimeout(() => {
        running = run().then((ok) => {
          if (ok) logger.info({ what }, 'the broker answered: done');
          else if (!stopped) retry(Math.min(LONGEST_RETRY_MS, 2 * waitMs));
        });
      }, waitMs);
      timer.unref();
    };
    retry(FIRST_RETRY_MS);
  }
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await done?.stop();
      done = null;
    },
  };
}
