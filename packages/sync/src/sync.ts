/**
 * `fieldcast sync`: one run of one source fetched step by step into its staging directory, then
 * published whole: the run's store, its first hours appended to the source's analysis, the
 * registry replaced, old runs retired (docs/decisions/0250-synced-runs-staged-then-published.md).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  DEFAULT_SYNC_KEEP_DAYS,
  EXPIRED_REMEMBERED,
  readSourceRegistry,
  syncedRunExpirationMs,
  syncedRunExpired,
  writeSourceRegistry,
  type SourceRegistry,
} from '@fieldcast/weather';
import { appendAnalysis, trimAnalysis } from './analysis-store.js';
import { FileShortError, StepMissingError, SyncConfigError, SyncError, UpstreamError } from './errors.js';
import { type HttpOptions, SourceHttp } from './http.js';
import { readRun, runSteps, runsBefore } from './run.js';
import { abandonedEntry, expireByAge, expiredEntry, retiredGone } from './retention.js';
import { writeRunStore } from './run-store.js';
import { type SourceFacts, type SourceName, SOURCES, stepUrls } from './sources.js';
import { type StagedStep, gridOf, readStaging, runStamp, stageStep, stagingDirs } from './staging.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface SyncOptions {
  source: SourceName;
  baseUrl: string;
  /** `<data dir>/sync`: one directory per source. */
  syncDir: string;
  /** A named run (--run); default the newest complete one. */
  runMs?: number;
  /** --steps A-B */
  steps?: string;
  now?: () => number;
  /** FIELDCAST_SYNC_KEEP_RUNS */
  keepRuns?: number;
  /** FIELDCAST_SYNC_KEEP_DAYS */
  keepDays?: number;
  http?: Omit<HttpOptions, 'baseUrl'>;
  /** Attempts at a run's remaining steps after the first fails (each resumes from what is staged); default 2. */
  stepRetries?: number;
  retryDelayMs?: number;
  /** Accept a run whose steps are not all published yet: stage those that are and publish nothing (polling). */
  partial?: boolean;
  progress?: (line: string) => void;
  /**
   * Aborted when this sync may no longer write (`serve sync`'s advisory lock lost with its
   * session, docs/decisions/0252-sync-as-a-process.md), or when the process stops: checked before
   * each step is staged and before publication, so another replica that took the source over is
   * not written under, and ending any request under way, so a stop waits for no download.
   */
  signal?: AbortSignal;
}

export type SyncResult =
  | { state: 'published'; runMs: number; steps: number; downloadBytes: number; storeBytes: number; seconds: number; store: string }
  | { state: 'up-to-date'; runMs: number }
  | { state: 'pending'; runMs: number; staged: number; of: number };

/** `2026-12-03T06Z` */
export const runName = (runMs: number) => `${new Date(runMs).toISOString().slice(0, 13)}Z`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Hours from a run to the source's next one: the run's hours its analysis holds. */
export function hoursToNextRun(source: SourceFacts, runMs: number): number {
  const [next] = runsBefore(source, runMs + 24 * HOUR_MS, 24 * 4)
    .filter((t) => t > runMs)
    .slice(-1);
  return next === undefined ? 24 : (next - runMs) / HOUR_MS;
}

/** How many of a source's runs a poll looks back over for the newest one published: two days of four runs a day. */
const RECENT_RUNS = 8;

/**
 * An upstream's "not yet": a 404 for a step's inventory or for its file, which upstream publishes
 * separately, so the inventory may be there before the file. Any other failure is reported.
 */
const notFound = (error: unknown): boolean => error instanceof UpstreamError && error.status === 404;

/** Is the run among the RECENT_RUNS newest of its source, those a poll waits for a step of (newestRun)? */
const recent = (source: SourceFacts, runMs: number, nowMs: number): boolean => runMs >= runsBefore(source, nowMs, RECENT_RUNS).at(-1)!;

/**
 * A 404 for a step of a run that is no longer among the RECENT_RUNS newest of its source (the
 * runs a poll looks for the newest published one among, newestRun) is not "not yet": upstream
 * has deleted the step or never wrote it, and a poll waiting for it would wait forever
 * (docs/decisions/0364-a-poll-waits-for-a-step-while-its-run-is-recent.md).
 */
function missingForGood(error: unknown, source: SourceFacts, runMs: number, nowMs: number): StepMissingError | null {
  if (!notFound(error) || recent(source, runMs, nowMs)) return null;
  const hours = Math.floor((nowMs - runMs) / HOUR_MS);
  return new StepMissingError(
    `${(error as UpstreamError).message}: still missing ${hours} h after the run ${runName(runMs)} started, past the ${RECENT_RUNS} newest runs a poll waits for; not waiting for it`,
  );
}

/** Is the step's inventory published? A 404 reads as "not yet" while the run is recent (missingForGood). */
async function published(http: SourceHttp, source: SourceFacts, options: SyncOptions, runMs: number, step: number): Promise<boolean> {
  try {
    await http.text(stepUrls(source, options.baseUrl, runMs, step).inventory);
    return true;
  } catch (error) {
    const gone = missingForGood(error, source, runMs, (options.now ?? Date.now)());
    if (gone) throw gone;
    if (notFound(error)) return false;
    throw error;
  }
}

/**
 * The newest run of the last two days, not yet expired, whose last step (of `range`) is published,
 * or polling, its first. A run past its expirationTime is not looked for: it would be refused
 * (refuseExpired) at every pass while upstream has nothing newer, where FIELDCAST_SYNC_KEEP_DAYS
 * is shorter than the two days (docs/decisions/0372-staged-runs-expire-and-polls-pick-unexpired-runs.md).
 *
 * Polling, a run only partly published is staged only once nothing older is left to serve: while
 * an older run than it is whole upstream and newer than the newest run served (`servedMs`), that
 * run is synced first, so a source with nothing served, or one behind, serves a whole run at once
 * (docs/decisions/0454-a-poll-serves-the-newest-complete-run-first.md).
 */
async function newestRun(
  http: SourceHttp,
  options: SyncOptions,
  lastStep: (runMs: number) => number,
  servedMs: number,
  progress: (line: string) => void,
): Promise<number> {
  const source = SOURCES[options.source];
  const now = (options.now ?? Date.now)();
  const keepDays = options.keepDays ?? DEFAULT_SYNC_KEEP_DAYS;
  const recentRuns = runsBefore(source, now, RECENT_RUNS);
  const unexpired = recentRuns.filter((runMs) => !syncedRunExpired(runMs, keepDays, now));
  let partly: number | undefined;
  for (const runMs of unexpired) {
    if (partly !== undefined && runMs <= servedMs) return partly;
    if (await published(http, source, options, runMs, lastStep(runMs))) {
      if (partly !== undefined)
        progress(`${source.name} ${runName(runMs)}: the newest run published whole, synced before ${runName(partly)}, which is not yet`);
      return runMs;
    }
    if (
      options.partial &&
      partly === undefined &&
      (await published(http, source, options, runMs, runSteps(source, runMs, options.steps)[0]!))
    )
      partly = runMs;
  }
  if (partly !== undefined) return partly;
  // Without `partial` a run counts only once its last step is out: upstream may well hold the
  // first steps of a run, so the message says which step was looked for. The caller names the
  // source (the CLI's `fieldcast: <source>:`, the poller's `<source>: sync failed:`).
  const whole = options.partial
    ? 'is published'
    : `is published through its last step${options.steps === undefined ? '' : ` of ${options.steps} h`}`;
  const why =
    unexpired.length < recentRuns.length
      ? ` that has not expired ${whole} at ${options.baseUrl} (a run expires FIELDCAST_SYNC_KEEP_DAYS=${keepDays} days after its start)`
      : ` ${whole} at ${options.baseUrl}`;
  throw new SyncError(`no run of the last two days${why}`);
}

/**
 * A run's staged steps, after removing those that cannot be read whole (a crash or a disk fault
 * under them): each is reported, and being missing now, fetched again by the pass, so a bad file
 * neither stops every later pass nor gets published
 * (docs/decisions/0250-synced-runs-staged-then-published.md: a step is there whole or not at all).
 */
async function stagedStepsOrRefetch(staging: string, report: (line: string) => void): Promise<StagedStep[]> {
  const { steps, unreadable } = await readStaging(staging);
  for (const bad of unreadable) {
    report(`staged step ${bad.step} h is unreadable (${bad.reason}); removed, fetching the step again`);
    await fs.rm(bad.file, { force: true });
  }
  return steps;
}

/**
 * A run past its expirationTime (its start plus FIELDCAST_SYNC_KEEP_DAYS) is EXPIRED for every
 * reader of the registry (docs/decisions/0363-synced-runs-expire-on-the-clock.md) and publishing
 * it would serve nothing: it would only write a store to retire at once, over the retired store of
 * its first sync that readers may still hold, and record it expired a second time. So it is
 * refused, before any of its steps is fetched, as a run the source does not have.
 */
function refuseExpired(source: SourceFacts, runMs: number, options: SyncOptions): void {
  const keepDays = options.keepDays ?? DEFAULT_SYNC_KEEP_DAYS;
  if (!syncedRunExpired(runMs, keepDays, (options.now ?? Date.now)())) return;
  const expiredAt = new Date(syncedRunExpirationMs(runMs, keepDays)).toISOString();
  throw new SyncConfigError(
    `${source.name} run ${runName(runMs)} expired at ${expiredAt} (its start plus FIELDCAST_SYNC_KEEP_DAYS=${keepDays}); not syncing it`,
  );
}

/** One sync: the named or newest run, resumed from its staged steps. */
export async function syncRun(options: SyncOptions): Promise<SyncResult> {
  const source = SOURCES[options.source];
  const progress = options.progress ?? (() => {});
  const http = new SourceHttp({ ...options.http, baseUrl: options.baseUrl, ...(options.signal ? { signal: options.signal } : {}) });
  const started = Date.now();
  const sourceDir = path.join(options.syncDir, source.name);
  // Before anything upstream: a pass that fails or publishes nothing still ends expired runs' service.
  await expireByAge(sourceDir, source.name, (options.now ?? Date.now)(), options.keepDays ?? DEFAULT_SYNC_KEEP_DAYS);
  // A pass stopped between publishing a run and appending its hours left the analysis behind the registry.
  await analyseRegistered(sourceDir, options, null);
  const registry = await readSourceRegistry(sourceDir, source.name);
  const servedMs = Math.max(-Infinity, ...registry.runs.map((r) => Date.parse(r.run)));
  const runMs = options.runMs ?? (await newestRun(http, options, (r) => runSteps(source, r, options.steps).at(-1)!, servedMs, progress));
  const steps = runSteps(source, runMs, options.steps);
  const name = runName(runMs);
  refuseExpired(source, runMs, options);
  const done = registry.runs.find((r) => Date.parse(r.run) === runMs);
  if (done && steps.every((s) => done.steps.includes(s))) {
    progress(`${source.name} ${name}: already synced`);
    return { state: 'up-to-date', runMs };
  }
  const staging = path.join(sourceDir, 'staging', runStamp(runMs));
  const retries = options.stepRetries ?? 2;
  let ready: StagedStep[];
  for (let attempt = 0; ; attempt++) {
    const staged = await stagedStepsOrRefetch(staging, (line) => progress(`${source.name} ${name}: ${line}`));
    const have = new Set(staged.map((s) => s.step));
    const firstMissing = steps.findIndex((s) => !have.has(s));
    if (firstMissing < 0) {
      ready = staged.filter((s) => steps.includes(s.step));
      break;
    }
    if (attempt === 0 && firstMissing > 0)
      progress(`${source.name} ${name}: resuming at step ${steps[firstMissing]} h (${firstMissing} staged)`);
    const remaining = steps.slice(firstMissing);
    let runGrid = staged[0] ? gridOf(staged[0].grid) : null;
    let inOrder = firstMissing;
    try {
      if (options.partial && !(await published(http, source, options, runMs, remaining[0]!)))
        return { state: 'pending', runMs, staged: firstMissing, of: steps.length };
      for await (const step of readRun(http, source, options.baseUrl, runMs, remaining)) {
        options.signal?.throwIfAborted();
        const before = Date.now();
        const bytes = await stageStep(staging, step, runGrid);
        runGrid ??= gridOf(step.grid);
        const k = steps.indexOf(step.step) + 1;
        inOrder = k;
        const mb = http.stats.bytes / 1e6;
        const rate = mb / Math.max(1e-3, (Date.now() - started) / 1000);
        progress(
          `${source.name} ${name} step ${step.step} h (${k}/${steps.length}): ${mb.toFixed(1)} MB fetched, ${rate.toFixed(1)} MB/s, ${(bytes / 1e6).toFixed(1)} MB staged in ${Date.now() - before} ms`,
        );
        if (options.partial && k < steps.length && !(await published(http, source, options, runMs, steps[k]!)))
          return { state: 'pending', runMs, staged: k, of: steps.length };
      }
    } catch (error) {
      // Polling, a step not there yet waits for the next pass like one whose inventory is not, while the run is recent;
      // so does one whose file upstream is still writing (docs/decisions/0455-a-file-shorter-than-its-inventory-is-not-yet-published.md).
      if (options.partial) {
        const nowMs = (options.now ?? Date.now)();
        const gone = missingForGood(error, source, runMs, nowMs);
        if (gone) throw gone;
        if (notFound(error)) return { state: 'pending', runMs, staged: inOrder, of: steps.length };
        if (error instanceof FileShortError && recent(source, runMs, nowMs)) {
          progress(`${source.name} ${name}: ${error.message}; upstream is still writing the file, waiting for it`);
          return { state: 'pending', runMs, staged: inOrder, of: steps.length };
        }
      }
      if (!(error instanceof SyncError) || error instanceof SyncConfigError || error instanceof StepMissingError || attempt >= retries)
        throw error;
      progress(`${source.name} ${name}: ${error.message}; retrying (${attempt + 1} of ${retries})`);
      await sleep(options.retryDelayMs ?? 30_000);
    }
  }

  options.signal?.throwIfAborted();
  const staged = ready;
  // The run's creationTime in the model area: when its first step was stored, once.
  const createdAt = done?.createdAt ?? (await fs.stat(staged[0]!.file)).mtime.toISOString();
  const runsDir = path.join(sourceDir, 'runs');
  await fs.mkdir(runsDir, { recursive: true });
  // A published store never changes under its path, since readers keep what they opened by it:
  // a run synced again with more steps is a new store, and the one it replaces is retired.
  const version = done ? `-${new Date((options.now ?? Date.now)()).toISOString().replace(/[-:.]/g, '')}` : '';
  const storePath = path.join(runsDir, `${runStamp(runMs)}${version}.zarr`);
  const attributes = {
    product: source.name,
    title: `${source.name} run ${name}`,
    source: options.baseUrl,
    run: new Date(runMs).toISOString(),
  };
  const summary = await writeRunStore(storePath, staged, { runMs, attributes: { ...attributes, id: `${source.name}-${runStamp(runMs)}` } });
  options.signal?.throwIfAborted();
  // The registry names the run before the analysis takes its hours, so no reader ever finds hours
  // of a run the registry does not name (docs/decisions/0363-synced-runs-expire-on-the-clock.md).
  await publish(
    sourceDir,
    registry,
    {
      run: new Date(runMs).toISOString(),
      path: path.relative(sourceDir, storePath),
      steps: [...steps],
      syncedAt: new Date((options.now ?? Date.now)()).toISOString(),
      createdAt,
    },
    options,
  );
  progress(`${source.name} ${name}: published`);
  // A run synced from a later step (--steps 24-30) has no first hours: its forecast hours must not stand in for them.
  if (steps[0] !== 0) progress(`${source.name} ${name}: starts at step ${steps[0]} h, so the analysis gets none of its hours`);
  await analyseRegistered(sourceDir, options, `analysis-${runStamp(runMs)}.zarr`);
  await fs.rm(staging, { recursive: true, force: true });
  const seconds = (Date.now() - started) / 1000;
  progress(
    `${source.name} ${name}: ${steps.length} steps, ${(http.stats.bytes / 1e6).toFixed(1)} MB fetched in ${seconds.toFixed(1)} s, store ${(summary.bytes / 1e6).toFixed(1)} MB`,
  );
  return {
    state: 'published',
    runMs,
    steps: steps.length,
    downloadBytes: http.stats.bytes,
    storeBytes: summary.bytes,
    seconds,
    store: storePath,
  };
}

/**
 * The analysis brought up to the runs the registry names: the first hours of each run synced from
 * step 0 (oldest first; hours it holds already are left as they are), then, when `trimAs` is given,
 * whole time chunks before FIELDCAST_SYNC_KEEP_DAYS moved out (as a new store of that name). Runs
 * after the registry names them (syncRun), so the analysis never holds hours of a run it does not
 * name; a pass stopped in between leaves it behind, and the next pass's call here catches it up.
 * The registry is written again when anything changed: serving processes open the analysis again
 * when it is (docs/decisions/0251-synced-stores-registry.md).
 */
async function analyseRegistered(sourceDir: string, options: SyncOptions, trimAs: string | null): Promise<void> {
  const source = SOURCES[options.source];
  const registry = await readSourceRegistry(sourceDir, source.name);
  let analysis = registry.analysis;
  let appended = 0;
  for (const r of [...registry.runs].reverse()) {
    if (r.steps[0] !== 0) continue;
    options.signal?.throwIfAborted();
    analysis ??= 'analysis.zarr';
    appended += await appendAnalysis(path.join(sourceDir, analysis), {
      runStore: path.join(sourceDir, r.path),
      hours: hoursToNextRun(source, Date.parse(r.run)),
      attributes: { product: source.name, title: `${source.name} analysis`, id: `${source.name}-analysis`, source: options.baseUrl },
    });
  }
  // FIELDCAST_SYNC_KEEP_DAYS: whole time chunks before the window leave the analysis (as a new store).
  const cutoff = (options.now ?? Date.now)() - (options.keepDays ?? DEFAULT_SYNC_KEEP_DAYS) * DAY_MS;
  const trimmed =
    analysis && trimAs && trimAs !== analysis && (await trimAnalysis(path.join(sourceDir, analysis), path.join(sourceDir, trimAs), cutoff));
  const now = trimmed ? trimAs : analysis;
  if (appended === 0 && now === registry.analysis) return;
  options.signal?.throwIfAborted();
  const at = new Date((options.now ?? Date.now)()).toISOString();
  await writeSourceRegistry(sourceDir, {
    ...registry,
    analysis: now,
    retired: [...registry.retired, ...(registry.analysis && registry.analysis !== now ? [{ path: registry.analysis, at }] : [])],
  });
  if (appended > 0) options.progress?.(`${source.name}: the analysis took ${appended} hours of the runs the registry names`);
}

/**
 * The registry with the new run in, runs past FIELDCAST_SYNC_KEEP_RUNS retired, and retired
 * stores removed once readers have had time to let them go. The analysis is left as it is
 * (analyseRegistered follows).
 */
async function publish(
  sourceDir: string,
  registry: SourceRegistry,
  run: SourceRegistry['runs'][number],
  options: SyncOptions,
): Promise<void> {
  const nowMs = (options.now ?? Date.now)();
  const keep = options.keepRuns ?? 8;
  const runs = [run, ...registry.runs.filter((r) => r.run !== run.run)].sort((a, b) => Date.parse(b.run) - Date.parse(a.run));
  // A run older than the analysis keeps is not served either.
  const keepDays = options.keepDays ?? DEFAULT_SYNC_KEEP_DAYS;
  const kept = runs.filter((r, k) => k < keep && !syncedRunExpired(Date.parse(r.run), keepDays, nowMs));
  const at = new Date(nowMs).toISOString();
  const replaced = registry.runs.find((r) => r.run === run.run && r.path !== run.path);
  const retired = [
    ...registry.retired,
    ...runs.filter((r) => !kept.includes(r)).map((r) => ({ path: r.path, at })),
    ...(replaced ? [{ path: replaced.path, at }] : []),
  ];
  const analysis = registry.analysis;
  const gone = retiredGone(retired, nowMs, new Set([...kept.map((k) => k.path), ...(analysis ? [analysis] : [])]));
  // A run still being staged that is older than this one is given up: a poller syncs the newest run,
  // so its other steps never come. It is remembered as expired, unpublished, and its steps' disk freed.
  const publishedMs = Date.parse(run.run);
  const givenUp: string[] = [];
  const abandoned: SourceRegistry['expired'] = [];
  for (const { initMs, dir } of await stagingDirs(sourceDir)) {
    if (initMs >= publishedMs) continue;
    givenUp.push(dir);
    // published before, its directory left behind by a sync that stopped after publishing
    if (runs.some((r) => Date.parse(r.run) === initMs)) continue;
    const entry = await abandonedEntry(dir, initMs, nowMs, keepDays);
    if (entry) abandoned.push(entry);
  }
  // Runs leaving the registry are remembered as expired (docs/decisions/0255-synced-runs-as-models.md).
  const expired = [
    ...runs.filter((r) => !kept.includes(r)).map((r) => expiredEntry(r, nowMs, keepDays)),
    ...abandoned,
    ...registry.expired.filter((e) => !kept.some((k) => k.run === e.run) && !abandoned.some((a) => a.run === e.run)),
  ]
    .sort((a, b) => Date.parse(b.run) - Date.parse(a.run))
    .slice(0, EXPIRED_REMEMBERED);
  await writeSourceRegistry(sourceDir, {
    ...registry,
    runs: kept,
    analysis,
    retired: retired.filter((r) => !gone.includes(r)),
    expired,
    keepDays,
  });
  for (const r of gone) await fs.rm(path.join(sourceDir, r.path), { recursive: true, force: true });
  for (const dir of givenUp) await fs.rm(dir, { recursive: true, force: true });
}
