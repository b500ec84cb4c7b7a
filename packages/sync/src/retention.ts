/**
 * Retention by age on every pass (docs/decisions/0250-synced-runs-staged-then-published.md): a run
 * is served until its expirationTime, its start plus FIELDCAST_SYNC_KEEP_DAYS
 * (docs/decisions/0255-synced-runs-as-models.md), whether or not a newer run is published by then,
 * so a pass that publishes nothing (upstream down, no new run yet) still takes expired runs out of
 * the registry and removes the stores retired long enough ago.
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

/** The retired stores whose grace has passed and that nothing served names: to be removed from disk. */
export const retiredGone = (retired: SourceRegistry['retired'], nowMs: number, served: ReadonlySet<string>) =>
  retired.filter((r) => nowMs - Date.parse(r.at) >= RETIRED_GRACE_MS && !served.has(r.path));

/**
 * Takes the runs past their expirationTime out of a source's registry (remembered as expired,
 * their stores retired) and removes the retired stores whose grace has passed. Writes nothing when
 * nothing changes, so serving processes do not reload for nothing.
 */
export async function expireByAge(sourceDir: string, source: string, nowMs: number, keepDays: number): Promise<void> {
  const registry = await readSourceRegistry(sourceDir, source);
  // At its expirationTime itself the run is EXPIRED, as every reader of the registry reads it (the one rule, syncedRunExpired).
  const leaving = registry.runs.filter((r) => syncedRunExpired(Date.parse(r.run), keepDays, nowMs));
  const kept = registry.runs.filter((r) => !leaving.includes(r));
  const at = new Date(nowMs).toISOString();
  const retired = [...registry.retired, ...leaving.map((r) => ({ path: r.path, at }))];
  const served = new Set([...kept.map((r) => r.path), ...(registry.analysis ? [registry.analysis] : [])]);
  const gone = retiredGone(retired, nowMs, served);
  if (leaving.length === 0 && gone.length === 0) return;
  const expired = [
    ...leaving.map((r) => expiredEntry(r, nowMs, keepDays)),
    ...registry.expired.filter((e) => !leaving.some((r) => r.run === e.run)),
  ]
    .sort((a, b) => Date.parse(b.run) - Date.parse(a.run))
    .slice(0, EXPIRED_REMEMBERED);
  await writeSourceRegistry(sourceDir, { ...registry, runs: kept, retired: retired.filter((r) => !gone.includes(r)), expired, keepDays });
  for (const r of gone) await fs.rm(path.join(sourceDir, r.path), { recursive: true, force: true });
}
