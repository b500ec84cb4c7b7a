/**
 * The registry of synced stores (docs/decisions/0251-synced-stores-registry.md): per upstream
 * source, a JSON file beside its stores, `<sync dir>/<source>/registry.json`, naming its runs'
 * stores (newest first) and its analysis store. `fieldcast sync` replaces it atomically after a
 * store is whole; every process serving weather reads it at start and again when it changes
 * (ReloadingSource), so a new run is served without a restart. Paths are relative to the file,
 * so a shared volume may be mounted anywhere.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writeWhole } from '../zarr/whole-files.js';

export const SyncedRunSchema = z.object({
  /** The run's start, ISO 8601 UTC. */
  run: z.string(),
  /** The run's store, relative to the registry's directory. */
  path: z.string().min(1),
  steps: z.array(z.number().int().nonnegative()),
  syncedAt: z.string(),
  /** When its first step was staged: the run's creationTime in the model area (absent in registries written before). */
  createdAt: z.string().optional(),
});

/** A run retention removed, or one given up before it was published, remembered so the model area lists it EXPIRED (docs/decisions/0255-synced-runs-as-models.md). */
export const ExpiredRunSchema = z.object({
  run: z.string(),
  steps: z.array(z.number().int().nonnegative()),
  createdAt: z.string(),
  /** when retention removed it from the runs served */
  at: z.string(),
  /** given up before it was published (a newer run was), its staged steps removed: never COMPLETE */
  abandoned: z.boolean().optional(),
});

export const SourceRegistrySchema = z.object({
  source: z.string().min(1),
  /** Runs served, newest first. */
  runs: z.array(SyncedRunSchema),
  /** The analysis store, relative to the registry's directory; null before the first run. */
  analysis: z.string().min(1).nullable(),
  /** Stores no longer served, removed from disk a while after (readers may still hold them). */
  retired: z.array(z.object({ path: z.string().min(1), at: z.string() })),
  /** Runs retention removed, newest first, the last EXPIRED_REMEMBERED of them. */
  expired: z.array(ExpiredRunSchema).default([]),
  /** FIELDCAST_SYNC_KEEP_DAYS of the sync that wrote it: the latest a run served expires, days after its start. */
  keepDays: z.number().positive().optional(),
});

/** How many expired runs a registry remembers. */
export const EXPIRED_REMEMBERED = 32;

export type SourceRegistry = z.infer<typeof SourceRegistrySchema>;

const DAY_MS = 86_400_000;

/** FIELDCAST_SYNC_KEEP_DAYS when unset, and the keepDays of a registry written before it recorded its own. */
export const DEFAULT_SYNC_KEEP_DAYS = 400;

/** The days after their start that a registry's runs are served (docs/decisions/0255-synced-runs-as-models.md). */
export const registryKeepDays = (registry: Pick<SourceRegistry, 'keepDays'>): number => registry.keepDays ?? DEFAULT_SYNC_KEEP_DAYS;

/** A synced run's expirationTime: its start plus FIELDCAST_SYNC_KEEP_DAYS (docs/decisions/0255-synced-runs-as-models.md). */
export const syncedRunExpirationMs = (initMs: number, keepDays: number): number => initMs + keepDays * DAY_MS;

/**
 * Whether a synced run is EXPIRED at `nowMs`: from its expirationTime on, whether or not a sync
 * pass has taken it out of the registry yet (docs/decisions/0363-synced-runs-expire-on-the-clock.md).
 * The one rule for every reader of the registry (the model area, the weather served, the synced
 * products) and for the sync that takes the run out, so all of them end a run's service at the
 * same instant of the same clock.
 */
export const syncedRunExpired = (initMs: number, keepDays: number, nowMs: number): boolean =>
  nowMs >= syncedRunExpirationMs(initMs, keepDays);

/** The runs a registry serves at `nowMs`, newest first: those it names that have not expired (syncedRunExpired). */
export const runsServedAt = (registry: SourceRegistry, nowMs: number): SourceRegistry['runs'] =>
  registry.runs.filter((r) => !syncedRunExpired(Date.parse(r.run), registryKeepDays(registry), nowMs));

export const REGISTRY_FILE = 'registry.json';

/** The registry of one source, or an empty one when none was written yet. */
export async function readSourceRegistry(sourceDir: string, source: string): Promise<SourceRegistry> {
  const file = path.join(sourceDir, REGISTRY_FILE);
  const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) return { source, runs: [], analysis: null, retired: [], expired: [] };
  const parsed = SourceRegistrySchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** Replaces a source's registry whole (written beside, then renamed). */
export async function writeSourceRegistry(sourceDir: string, registry: SourceRegistry): Promise<void> {
  await fs.mkdir(sourceDir, { recursive: true });
  const file = path.join(sourceDir, REGISTRY_FILE);
  await writeWhole(file, JSON.stringify(SourceRegistrySchema.parse(registry), null, 2));
}

/** Each source's directory under the sync dir with its registry, in source name order. */
async function readRegistries(syncDir: string): Promise<Array<{ dir: string; registry: SourceRegistry }>> {
  const names = await fs.readdir(syncDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const out: Array<{ dir: string; registry: SourceRegistry }> = [];
  for (const entry of names.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = path.join(syncDir, entry.name);
    out.push({ dir, registry: await readSourceRegistry(dir, entry.name) });
  }
  return out;
}

/**
 * The synced stores to serve at `nowMs`, in order of preference: per source (in name order), its
 * newest run, its analysis, then its older runs: each hour of a series comes from the first of
 * them that holds it (docs/decisions/0295-time-stitching-on-one-grid.md), so the newest run
 * answers the hours it holds, the analysis the past, and older runs what neither holds. A run
 * past its expirationTime is not served, as the model area lists it EXPIRED, though no sync pass
 * took it out of the registry yet (runsServedAt).
 */
export async function syncedStorePaths(syncDir: string, nowMs: number): Promise<string[]> {
  const out: string[] = [];
  for (const { dir, registry } of await readRegistries(syncDir)) {
    const [newest, ...older] = runsServedAt(registry, nowMs);
    if (newest) out.push(path.join(dir, newest.path));
    if (registry.analysis) out.push(path.join(dir, registry.analysis));
    for (const r of older) out.push(path.join(dir, r.path));
  }
  return out;
}

/** A stamp of the registries' state (names, sizes, modification times) that changes when any is replaced. */
export async function registriesStamp(syncDir: string): Promise<string> {
  const names = await fs.readdir(syncDir).catch(() => [] as string[]);
  const parts: string[] = [];
  for (const name of names.sort()) {
    const stat = await fs.stat(path.join(syncDir, name, REGISTRY_FILE)).catch(() => null);
    if (stat) parts.push(`${name}:${stat.size}:${stat.mtimeMs}:${stat.ino}`);
  }
  return parts.join('|');
}

/**
 * A stamp of what the registries serve at a clock: registriesStamp and how many of the runs they
 * name have expired at `nowMs` (syncedRunExpired). It changes when a registry is replaced and when
 * the clock reaches a run's expirationTime with no sync pass since
 * (docs/decisions/0363-synced-runs-expire-on-the-clock.md). The registries are read only when
 * their stamp changed.
 */
export function servedStamp(syncDir: string): (nowMs: number) => Promise<string> {
  let read: { stamp: string; runs: Array<{ initMs: number; keepDays: number }> } | undefined;
  return async (nowMs) => {
    const stamp = await registriesStamp(syncDir);
    if (read?.stamp !== stamp) {
      // A registry that cannot be read is the reader's to report when it loads the stores
      // (reloading-source.ts, synced-products.ts); the stamp still names its state.
      const registries = await readRegistries(syncDir).catch(() => []);
      const runs = registries.flatMap(({ registry }) =>
        registry.runs.map((r) => ({ initMs: Date.parse(r.run), keepDays: registryKeepDays(registry) })),
      );
      read = { stamp, runs };
    }
    return `${stamp}|${read.runs.filter((r) => syncedRunExpired(r.initMs, r.keepDays, nowMs)).length}`;
  };
}
