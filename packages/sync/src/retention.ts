/**
 * Retention by age on every pass (docs/decisions/0250-synced-runs-staged-then-published.md): a run
 * is served until its expirationTime, its start plus FIELDCAST_SYNC_KEEP_DAYS
 * (docs/decisions/0255-synced-runs-as-models.md), whether or not a newer run is published by then,
 * so a pass that publishes nothing (upstream down, no new run yet) still takes expired runs out of
 * the registry, gives up the runs staged past theirs and removes the stores retired long enough ago.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  EXPIRED_REMEMBERED,
  type SourceRegistry,
  readSourceRegistry,
  syncedRunExpirationMs,
  syncedRunExpired,
  writeSourceRegistry,
} from '@fieldcast/weather';
import { stagedSteps, stagingDirs } from './staging.js';

/** How long a retired store stays on disk after it left the registry: readers reload within a minute. */
export const RETIRED_GRACE_MS = 10 * 60_000;

/**
 * A run leaving the registry at `nowMs` as the registry remembers it (docs/decisions/0255-synced-runs-as-models.md),
 * expired at its expirationTime if that has passed (by age), else now (by count).
 */
export const expiredEntry = (r: SourceRegistry['runs'][number], nowMs: number, keepDays: number): SourceRegistry['expired'][number] => ({
  run: r.run,
  steps: r.steps,
  createdAt: r.createdAt ?? r.syncedAt,
  at: new Date(Math.min(nowMs, syncedRunExpirationMs(Date.parse(r.run), keepDays))).toISOString(),
});

/**
 * A run being staged, given up at `nowMs` before it was published, as the registry remembers it
 * (docs/decisions/0255-synced-runs-as-models.md): expired unpublished, at its expirationTime if
 * that has passed (docs/decisions/0372-staged-runs-expire-and-polls-pick-unexpired-runs.md), else
 * now (a newer run was published). Null when none of its steps can be read: nothing to remember.
 */
export async function abandonedEntry(
  dir: string,
  initMs: number,
  nowMs: number,
  keepDays: number,
): Promise<SourceRegistry['expired'][number] | null> {
  const steps = await stagedSteps(dir);
  const first = steps[0];
  if (!first) return null;
  // Removed by a pass that took it out between the two reads: nothing left to remember.
  const stat = await fs.stat(first.file).catch(() => null);
  if (!stat) return null;
  return {
    run: new Date(initMs).toISOString(),
    steps: steps.map((s) => s.step),
    createdAt: stat.mtime.toISOString(),
    at: new Date(Math.min(nowMs, syncedRunExpirationMs(initMs, keepDays))).toISOString(),
    abandoned: true,
  };
}

/** The retired stores whose grace has passed and that nothing served names: to be removed from disk. */
export const retiredGone = (retired: SourceRegistry['retired'], nowMs: number, served: ReadonlySet<string>) =>
  retired.filter((r) => nowMs - Date.parse(r.at) >= RETIRED_GRACE_MS && !served.has(r.path));

/**
 * Takes the runs past their expirationTime out of a source's registry (remembered as expired,
 * their stores retired), gives up the runs staged past theirs (remembered as expired unpublished,
 * their staged steps removed) and removes the retired stores whose grace has passed. Writes
 * nothing when nothing changes, so serving processes do not reload for nothing.
 */
export async function expireByAge(sourceDir: string, source: string, nowMs: number, keepDays: number): Promise<void> {
  const registry = await readSourceRegistry(sourceDir, source);
  // At its expirationTime itself the run is EXPIRED, as every reader of the registry reads it (the one rule, syncedRunExpired).
  const leaving = registry.runs.filter((r) => syncedRunExpired(Date.parse(r.run), keepDays, nowMs));
  const kept = registry.runs.filter((r) => !leaving.includes(r));
  // A staged run's other steps are not fetched past its expirationTime (sync.ts refuseExpired,
  // newestRun), so it would stay staged for good: it expires there as a published run does
  // (docs/decisions/0372-staged-runs-expire-and-polls-pick-unexpired-runs.md).
  const stagedPast = (await stagingDirs(sourceDir)).filter((s) => syncedRunExpired(s.initMs, keepDays, nowMs));
  const abandoned: SourceRegistry['expired'] = [];
  for (const { initMs, dir } of stagedPast) {
    const run = new Date(initMs).toISOString();
    // Published before (its directory left by a pass stopped after publishing), or already remembered: only its disk to free.
    if (registry.runs.some((r) => r.run === run) || registry.expired.some((e) => e.run === run)) continue;
    const entry = await abandonedEntry(dir, initMs, nowMs, keepDays);
    if (entry) abandoned.push(entry);
  }
  const at = new Date(nowMs).toISOString();
  const retired = [...registry.retired, ...leaving.map((r) => ({ path: r.path, at }))];
  const served = new Set([...kept.map((r) => r.path), ...(registry.analysis ? [registry.analysis] : [])]);
  const gone = retiredGone(retired, nowMs, served);
  if (leaving.length > 0 || abandoned.length > 0 || gone.length > 0) {
    const expired = [
      ...leaving.map((r) => expiredEntry(r, nowMs, keepDays)),
      ...abandoned,
      ...registry.expired.filter((e) => !leaving.some((r) => r.run === e.run)),
    ]
      .sort((a, b) => Date.parse(b.run) - Date.parse(a.run))
      .slice(0, EXPIRED_REMEMBERED);
    await writeSourceRegistry(sourceDir, { ...registry, runs: kept, retired: retired.filter((r) => !gone.includes(r)), expired, keepDays });
  }
  for (const r of gone) await fs.rm(path.join(sourceDir, r.path), { recursive: true, force: true });
  // After the registry remembers them, so no reader finds a staged run neither lists.
  for (const { dir } of stagedPast) await fs.rm(dir, { recursive: true, force: true });
}
