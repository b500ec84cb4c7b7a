/**
 * The weather source a fleet serves (docs/architecture.md §2: "synthetic, or Zarr stores (local
 * path or HTTP)"): the Zarr stores named by a list of paths/URLs and by the catalog of ingested
 * stores (`<data dir>/stores.yaml`, written by `fieldcast ingest`), in front of the synthetic
 * world, which answers everything they do not cover (composite-source.ts).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompositeSource } from './composite-source.js';
import { NoSyntheticSource } from './no-synthetic-source.js';
import { ReloadingSource } from './reloading-source.js';
import { servedStamp, syncedStorePaths } from './synced-stores.js';
import { gridExtent } from '../grid/grid-extent.js';
import type { GridSource } from '../grid/grid-source.js';
import { readIngestedStores } from '../ingest/store-catalog.js';
import { SyntheticSource } from '../synthetic/synthetic-source.js';
import { ZarrSource } from '../zarr/zarr-source.js';

/** A configured store that cannot be read: a configuration fault, reported at start-up. */
export class WeatherStoreError extends Error {
  override name = 'WeatherStoreError';
}

export interface LoadWeatherSourceOptions {
  /** the YAML catalog of ingested stores; a missing file means no stores */
  storesCatalogPath?: string;
  /** Zarr stores as directory paths or http(s) URLs; they come before the catalog's stores */
  storeUrls?: string[];
  /**
   * wall clock for the synthetic world (its coverage end and forecast boundary) and for the synced
   * runs' expiry (docs/decisions/0363-synced-runs-expire-on-the-clock.md)
   */
  now?: () => number;
  /** decoded-chunk cache per store, bytes (ZarrSource's default when omitted) */
  cacheBytes?: number;
  /**
   * the synced stores' directory (`<data dir>/sync`, docs/decisions/0251-synced-stores-registry.md):
   * its registries' stores come after the others, and the source is made again when they change
   */
  syncDir?: string;
  /**
   * false (FIELDCAST_SYNTHETIC=off): no synthetic world behind the stores; a request they do not
   * cover is refused (not_synced, docs/decisions/0256-synthetic-off.md). Default true.
   */
  synthetic?: boolean;
  /** how often to look for a changed registry, ms (default 15 s) */
  reloadMs?: number;
  /** told when the synced stores served change, or a reload fails (the stores served stay) */
  onReload?: (source: GridSource) => void;
  onReloadError?: (error: unknown) => void;
}

/** A local path absolute, a file: URL as its path, an http(s) URL as written. */
function normaliseLocation(location: string): string {
  if (/^https?:\/\//i.test(location)) return location;
  if (/^file:/i.test(location)) return fileURLToPath(location);
  return path.resolve(location);
}

/**
 * Opens the stores and returns a CompositeSource with SyntheticSource last, or the bare
 * SyntheticSource when there are none. Order of preference: `storeUrls` as given, then the
 * catalog's stores in file order; a store named twice is opened once. A store that cannot be
 * opened stops the load (WeatherStoreError naming it): serving synthetic values where the
 * operator configured real ones would be a silent lie.
 */
export async function loadWeatherSource(options: LoadWeatherSourceOptions = {}): Promise<GridSource> {
  const synthetic = options.synthetic === false ? new NoSyntheticSource() : new SyntheticSource(options.now ? { now: options.now } : {});
  const served = await loadServed(options, synthetic);
  SERVED.set(served, { syncDir: options.syncDir, synthetic: options.synthetic !== false });
  return served;
}

/** What a served weather source was opened with, for the areas that describe it (the model area's models). */
export interface ServedWeather {
  /** the synced stores' directory, when the source serves them */
  syncDir: string | undefined;
  /** whether the synthetic world answers what no store covers (FIELDCAST_SYNTHETIC) */
  synthetic: boolean;
}

const SERVED = new WeakMap<GridSource, ServedWeather>();

/** How loadWeatherSource opened `source`; a source made otherwise (a test's) serves the synthetic world and no synced stores. */
export function servedWeatherOf(source: GridSource): ServedWeather {
  return SERVED.get(source) ?? { syncDir: undefined, synthetic: true };
}

/**
 * Which weather `source` serves now, as what a cache or an ETag of answers computed from it names
 * it by: the source's id (its stores) and, for synced stores that reload, the digest of the stamp
 * they were loaded at (ReloadingSource.version, docs/decisions/0251-synced-stores-registry.md).
 * The id alone does not move when a store is opened again under the same name with other hours
 * (the analysis appended in place, a run synced again with more steps); the stamp does, and it is
 * the same in every replica reading the same registries. A source that never changes is its id.
 */
export function weatherVersion(source: GridSource): string {
  if (!(source instanceof ReloadingSource)) return source.id;
  return `${source.id}#${source.version}`;
}

async function loadServed(options: LoadWeatherSourceOptions, synthetic: SyntheticSource | NoSyntheticSource): Promise<GridSource> {
  if (!options.syncDir) return openComposite(await configuredStores(options), synthetic, new Map(), options);
  const syncDir = options.syncDir;
  const now = options.now ?? Date.now;
  // A run leaves the stores served at its expirationTime on this clock, as the model area lists it
  // EXPIRED then, with no sync pass since: the stamp changes at that instant, and the next reload
  // (every reloadMs) drops it (docs/decisions/0363-synced-runs-expire-on-the-clock.md).
  const stamp = servedStamp(syncDir);
  const configured = await configuredStores(options);
  const open = new Map<string, ZarrSource>();
  /** each synced store's metadata version when it was opened */
  const versions = new Map<string, string>();
  /** stores opened again under the same location, to close with the dropped ones */
  const replaced: ZarrSource[] = [];
  const source = await ReloadingSource.open({
    load: async () => {
      const synced = (await syncedStorePaths(syncDir, now())).map((location) => ({ location, from: `${syncDir} (synced)` }));
      // The analysis grows in place (docs/decisions/0250-synced-runs-staged-then-published.md): an
      // open store knows only the hours its metadata declared when opened, so a store whose
      // metadata was replaced is opened again.
      for (const { location } of synced) {
        const version = await metadataVersion(location);
        const before = open.get(location);
        if (before && versions.get(location) !== version) {
          open.delete(location);
          replaced.push(before);
        }
        versions.set(location, version);
      }
      return openComposite([...configured, ...synced], synthetic, open, options);
    },
    stamp: () => stamp(now()),
    dropped: (previous, next) => {
      const kept = new Set(storesOf(next)?.locations ?? []);
      const gone = (storesOf(previous)?.locations ?? []).filter((l) => !kept.has(l));
      return [
        ...replaced.splice(0),
        ...gone.flatMap((l) => {
          const s = open.get(l);
          open.delete(l);
          versions.delete(l);
          return s ? [s] : [];
        }),
      ];
    },
    ...(options.onReload ? { onReload: options.onReload } : {}),
    ...(options.onReloadError ? { onError: options.onReloadError } : {}),
  });
  source.watch(options.reloadMs ?? 15_000);
  return source;
}

/** The modification time and inode of a store's consolidated metadata, replaced whole by each append; empty when it has none. */
async function metadataVersion(location: string): Promise<string> {
  const stat = await fs.stat(path.join(location, '.zmetadata')).catch(() => null);
  return stat ? `${stat.mtimeMs}:${stat.ino}` : '';
}

type Wanted = Array<{ location: string; from?: string }>;

/** FIELDCAST_WEATHER_STORES' stores, then those of the catalog of ingested stores. */
async function configuredStores(options: LoadWeatherSourceOptions): Promise<Wanted> {
  const wanted: Wanted = [];
  for (const url of options.storeUrls ?? []) wanted.push({ location: normaliseLocation(url) });
  if (options.storesCatalogPath) {
    let entries;
    try {
      entries = await readIngestedStores(options.storesCatalogPath);
    } catch (err) {
      throw new WeatherStoreError(`cannot read the catalog of stores ${options.storesCatalogPath}: ${(err as Error).message}`);
    }
    for (const e of entries) wanted.push({ location: normaliseLocation(e.path), from: `${options.storesCatalogPath} (store ${e.id})` });
  }
  return wanted;
}

/** The stores in front of the synthetic world; `open` holds stores opened before, reused (and new ones added to it). */
async function openComposite(
  wanted: Wanted,
  synthetic: SyntheticSource | NoSyntheticSource,
  open: Map<string, ZarrSource>,
  options: LoadWeatherSourceOptions,
): Promise<GridSource> {
  const stores: ZarrSource[] = [];
  const opened = new Set<string>();
  const fresh: ZarrSource[] = [];
  try {
    for (const { location, from } of wanted) {
      if (opened.has(location)) continue;
      opened.add(location);
      const before = open.get(location);
      if (before) {
        stores.push(before);
        continue;
      }
      try {
        const store = await ZarrSource.open(location, options.cacheBytes !== undefined ? { cacheBytes: options.cacheBytes } : {});
        fresh.push(store);
        stores.push(store);
      } catch (err) {
        throw new WeatherStoreError(`cannot open the Zarr store ${location}${from ? ` (from ${from})` : ''}: ${(err as Error).message}`);
      }
    }
  } catch (err) {
    await Promise.all(fresh.map((s) => s.close()));
    throw err;
  }
  for (const s of fresh) open.set(s.location, s);
  // Without the synthetic world, NoSyntheticSource ends the chain, behind no store at all if need be,
  // naming the stores in front of it when it refuses (docs/decisions/0498-synthetic-off-refusals-name-what-is-held.md).
  if (synthetic instanceof NoSyntheticSource) return new CompositeSource([...stores, new NoSyntheticSource(stores)]);
  return stores.length === 0 ? synthetic : new CompositeSource([...stores, synthetic]);
}

/** One line per store a source serves (id, location, variables, days), for start-up output. */
export function describeWeatherSource(served: GridSource): string[] {
  const source = served instanceof ReloadingSource ? served.source : served;
  const stores = source instanceof CompositeSource ? source.sources.filter((s): s is ZarrSource => s instanceof ZarrSource) : [];
  const off = source instanceof CompositeSource && source.sources.at(-1) instanceof NoSyntheticSource;
  const last = off
    ? 'nothing wherever no store covers a request (FIELDCAST_SYNTHETIC=off)'
    : 'synthetic world wherever no store covers a request';
  if (stores.length === 0) return [off ? last : `synthetic world only (${source.label})`];
  const lines = stores.map((s) => {
    const vars =
      s
        .variables()
        .map((v) => v.id)
        .join(', ') || 'no contract variables';
    const { box, time } = gridExtent(s);
    return `${s.id}  ${s.location}  [${vars}]  ${time}  ${box}`;
  });
  return [...lines, last];
}

/** What another thread opens to serve the weather a process serves (storesOf): structured-cloneable. */
export interface ServedStores {
  /** the Zarr stores' locations, in order of preference */
  locations: string[];
  /** whether the synthetic world answers what they do not cover (FIELDCAST_SYNTHETIC) */
  synthetic: boolean;
}

/**
 * The Zarr stores another thread opens to serve what `source` serves
 * (docs/decisions/0051-heavy-work-in-worker-threads.md), as loadWeatherSource makes them: the
 * synthetic world alone, or Zarr stores in front of it or of nothing (FIELDCAST_SYNTHETIC=off).
 * Any other source (a test's hand-made grid) cannot be opened again: undefined, and its work
 * stays on the event loop.
 */
export function storesOf(served: GridSource): ServedStores | undefined {
  const source = served instanceof ReloadingSource ? served.source : served;
  if (source instanceof SyntheticSource) return { locations: [], synthetic: true };
  if (!(source instanceof CompositeSource)) return undefined;
  const parts = source.sources;
  const last = parts[parts.length - 1];
  const stores = parts.slice(0, -1);
  if (!(last instanceof SyntheticSource || last instanceof NoSyntheticSource) || !stores.every((s) => s instanceof ZarrSource))
    return undefined;
  return { locations: stores.map((s) => (s as ZarrSource).location), synthetic: last instanceof SyntheticSource };
}

/**
 * The sets of stores a thread keeps open, the latest used last: the weather served now and the one
 * before it, whose tasks may still arrive around a reload. A thread runs one task at a time
 * (runtime workers/worker-pool.ts), so a set not among them has no read under way and is closed:
 * kept, every run ever synced would stay open in every thread, each store with its chunk cache.
 */
const KEPT_SETS = 2;
const reopened = new Map<string, Promise<GridSource>>();

/**
 * The weather of storesOf's answer, opened once per set of stores in this thread (a compute
 * thread serves many tasks). A store whose metadata was replaced since (the analysis appended in
 * place) is another weather, opened again, as the process opens it again (loadServed).
 */
export async function openStores(stores: ServedStores): Promise<GridSource> {
  const versions = await Promise.all(stores.locations.map(async (location) => [location, await metadataVersion(location)]));
  const key = JSON.stringify([stores.synthetic, versions]);
  const source = reopened.get(key) ?? loadWeatherSource({ storeUrls: stores.locations, synthetic: stores.synthetic });
  reopened.delete(key);
  reopened.set(key, source);
  for (const [old, dropped] of reopened) {
    if (reopened.size <= KEPT_SETS) break;
    reopened.delete(old);
    void dropped.then((s) => (s as { close?: () => Promise<void> }).close?.()).catch(() => undefined);
  }
  return source;
}
