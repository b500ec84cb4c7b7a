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

/**
 * The synced stores to serve, in order of preference: per source (in name order), its newest
 * run, its analysis, then its older runs: each hour of a series comes from the first of them
 * that holds it (docs/decisions/0295-time-stitching-on-one-grid.md), so the newest run answers
 * the hours it holds, the analysis the past, and older runs what neither holds.
 */
export async function syncedStorePaths(syncDir: string): Promise<string[]> {
  const names = await fs.readdir(syncDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const out: string[] = [];
  for (const entry of names.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = path.join(syncDir, entry.name);
    const registry = await readSourceRegistry(dir, entry.name);
    const [newest, ...older] = registry.runs;
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
