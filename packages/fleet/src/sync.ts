/**
 * `fieldcast sync <source> [--once] [--run YYYY-MM-DDTHHZ] [--steps A-B]`: upstream model runs into
 * the data dir's synced stores (docs/architecture.md §6; @fieldcast/sync does the work,
 * docs/decisions/0250-synced-runs-staged-then-published.md has the rules). With --once: one run,
 * exit 0, or exit 2 naming what failed. Without: polls, staging each new run's steps as they
 * appear and publishing it when whole. A serving process picks the registry's change up by itself
 * (docs/decisions/0251-synced-stores-registry.md), so this never touches the database.
 */
import { parseArgs } from 'node:util';
import { type FleetEnv, syncDirFromEnv } from '@fieldcast/runtime';
import {
  type SourceName,
  type SyncOptions,
  SyncError,
  isSourceName,
  parseRun,
  parseStepRange,
  runName,
  runSteps,
  sourceBaseUrl,
  syncRun,
  SOURCES,
} from '@fieldcast/sync';
import { UsageError } from './usage-error.js';
import type { SyncPasses } from './sync-passes.js';

type Print = (line: string) => void;

export const SYNC_USAGE = `usage: fieldcast sync <source> [--once] [--run YYYY-MM-DDTHHZ] [--steps A-B]; sources: ${Object.keys(SOURCES).join(', ')}`;

type SyncEnv = Pick<
  FleetEnv,
  | 'FIELDCAST_DATA_DIR'
  | 'FIELDCAST_SYNC_DIR'
  | 'FIELDCAST_SOURCE_GFS_0P25_URL'
  | 'FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL'
  | 'FIELDCAST_SYNC_KEEP_RUNS'
  | 'FIELDCAST_SYNC_KEEP_DAYS'
  | 'FIELDCAST_SYNC_POLL_MS'
  | 'FIELDCAST_SYNC_RETRY_MS'
>;

/** The options of a sync of `source` from the environment (base URL, retention, where). */
export function syncOptions(source: SourceName, env: SyncEnv): SyncOptions {
  const urls = {
    FIELDCAST_SOURCE_GFS_0P25_URL: env.FIELDCAST_SOURCE_GFS_0P25_URL,
    FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL: env.FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL,
  };
  return {
    source,
    baseUrl: sourceBaseUrl(source, urls),
    syncDir: syncDirFromEnv(env),
    keepRuns: env.FIELDCAST_SYNC_KEEP_RUNS,
    keepDays: env.FIELDCAST_SYNC_KEEP_DAYS,
    retryDelayMs: env.FIELDCAST_SYNC_RETRY_MS,
  };
}

/** A sync that failed: exit 2 with this message (cli.ts). */
export class SyncFailed extends Error {
  override name = 'SyncFailed';
}

export async function syncCommand(args: string[], env: SyncEnv, print: Print, signal?: AbortSignal): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { once: { type: 'boolean', default: false }, run: { type: 'string' }, steps: { type: 'string' } },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${SYNC_USAGE}`);
  }
  const { values, positionals } = parsed;
  const name = positionals[0];
  if (positionals.length !== 1 || !name) throw new UsageError(SYNC_USAGE);
  if (!isSourceName(name)) throw new UsageError(`unknown source "${name}"\n${SYNC_USAGE}`);
  // A refusal of the source's settings (its base URL) or of an option's form is a usage error, told
  // before anything starts: a poller would fail every pass on it.
  const usage = <T>(read: () => T, option?: string): T => {
    try {
      return read();
    } catch (err) {
      if (err instanceof SyncError) throw new UsageError(option ? `${option}: ${err.message}\n${SYNC_USAGE}` : err.message);
      throw err;
    }
  };
  const options: SyncOptions = { ...usage(() => syncOptions(name, env)), progress: print };
  const { run, steps } = values;
  if (run) options.runMs = usage(() => parseRun(SOURCES[name], run), '--run');
  if (steps) {
    // With --run the range must hold some of that run's steps; else its form alone is known now.
    const runMs = options.runMs;
    usage(() => (runMs === undefined ? parseStepRange(steps) : runSteps(SOURCES[name], runMs, steps)), '--steps');
    options.steps = steps;
  }
  if (values.once) {
    try {
      await syncRun(options);
    } catch (err) {
      if (err instanceof SyncError) throw new SyncFailed(`${name}${options.runMs ? ` ${runName(options.runMs)}` : ''}: ${err.message}`);
      throw err;
    }
    return;
  }
  await pollSource(options, env.FIELDCAST_SYNC_POLL_MS, print, signal);
}

/** What a poller reports besides its progress lines. */
export interface PollReports {
  /** a failed pass (default: printed as a progress line) */
  failed?: (line: string, error: unknown) => void;
  /** how each pass ended, for /metrics */
  passes?: SyncPasses;
}

/**
 * Syncs a source's newest run as its steps appear, every `everyMs`, until `signal` aborts (which
 * ends a pass under way): a failed pass is reported (`reports.failed`, counted in `reports.passes`) and the next runs on
 * schedule (the staged steps stay).
 */
export async function pollSource(
  options: SyncOptions,
  everyMs: number,
  print: Print,
  signal?: AbortSignal,
  reports: PollReports = {},
): Promise<void> {
  while (!signal?.aborted) {
    try {
      // The signal ends a pass under way too (its requests with it): a stopping fleet waits for no download.
      const result = await syncRun({ ...options, partial: true, stepRetries: 0, ...(signal ? { signal } : {}) });
      reports.passes?.count(options.source, result.state);
      if (result.state === 'pending')
        print(`${options.source} ${runName(result.runMs)}: ${result.staged} of ${result.of} steps in, waiting for the rest`);
    } catch (err) {
      // stopped, not failed: what it staged stays for the next pass
      if (signal?.aborted) break;
      // Whatever stopped this pass (bad upstream data, a full disk), the next runs on schedule:
      // a poller that stopped would leave its source unsynced, with nothing more in /metrics.
      reports.passes?.count(options.source, 'failed');
      (reports.failed ?? print)(`${options.source}: sync failed: ${err instanceof Error ? err.message : String(err)}`, err);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, everyMs);
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}
