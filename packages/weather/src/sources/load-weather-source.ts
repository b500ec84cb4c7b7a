/**
 * The weather source a fleet serves (docs/architecture.md §2: "synthetic, or Zarr stores (local
 * path or HTTP)"): the Zarr stores named by a list of paths/URLs and by the catalog of ingested
 * stores (`<data dir>/stores.yaml`, written by `fieldcast ingest`), in front of the synthetic
 * world, which answers everything they do not cover (composite-source.ts).
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompositeSource } from './composite-source.js';
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
  /** wall clock for the synthetic world (its coverage end and forecast boundary) */
  now?: () => number;
  /** decoded-chunk cache per store, bytes (ZarrSource's default when omitted) */
  cacheBytes?: number;
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
  const synthetic = new SyntheticSource(options.now ? { now: options.now } : {});
  const wanted: Array<{ location: string; from?: string }> = [];
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
  const stores: ZarrSource[] = [];
  const opened = new Set<string>();
  try {
    for (const { location, from } of wanted) {
      if (opened.has(location)) continue;
      opened.add(location);
      try {
        stores.push(await ZarrSource.open(location, options.cacheBytes !== undefined ? { cacheBytes: options.cacheBytes } : {}));
      } catch (err) {
        throw new WeatherStoreError(`cannot open the Zarr store ${location}${from ? ` (from ${from})` : ''}: ${(err as Error).message}`);
      }
    }
  } catch (err) {
    await Promise.all(stores.map((s) => s.close()));
    throw err;
  }
  return stores.length === 0 ? synthetic : new CompositeSource([...stores, synthetic]);
}

/** One line per store a source serves (id, location, variables, days), for start-up output. */
export function describeWeatherSource(source: GridSource): string[] {
  const stores = source instanceof CompositeSource ? source.sources.filter((s): s is ZarrSource => s instanceof ZarrSource) : [];
  if (stores.length === 0) return [`synthetic world only (${source.label})`];
  const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');
  const lines = stores.map((s) => {
    const c = s.coverage();
    const g = s.grid;
    const vars =
      s
        .variables()
        .map((v) => v.id)
        .join(', ') || 'no contract variables';
    const time = c.startMs <= -8.64e15 ? 'static' : `${iso(c.startMs)}..${iso(c.endMs)}`;
    const deg = (x: number) => Number(x.toFixed(6));
    const box = `lat ${deg(g.lat0)}..${deg(g.lat0 + (g.nLat - 1) * g.dLat)}, lon ${deg(g.lon0)}..${deg(g.lon0 + (g.nLon - 1) * g.dLon)}`;
    return `${s.id}  ${s.location}  [${vars}]  ${time}  ${box}`;
  });
  return [...lines, 'synthetic world wherever no store covers a request'];
}

/**
 * The Zarr stores another thread opens to serve what `source` serves
 * (docs/decisions/0051-heavy-work-in-worker-threads.md): the synthetic world alone, or Zarr stores
 * in front of it, as loadWeatherSource makes them. Any other source (a test's hand-made grid)
 * cannot be opened again: undefined, and its work stays on the event loop.
 */
export function storesOf(source: GridSource): string[] | undefined {
  if (source instanceof SyntheticSource) return [];
  if (!(source instanceof CompositeSource)) return undefined;
  const parts = source.sources;
  const stores = parts.slice(0, -1);
  if (!(parts[parts.length - 1] instanceof SyntheticSource) || !stores.every((s) => s instanceof ZarrSource)) return undefined;
  return stores.map((s) => (s as ZarrSource).location);
}

const reopened = new Map<string, Promise<GridSource>>();

/** The weather of storesOf's answer, opened once per set of stores in this thread (a compute thread serves many tasks). */
export function openStores(stores: string[]): Promise<GridSource> {
  const key = JSON.stringify(stores);
  let source = reopened.get(key);
  if (!source) reopened.set(key, (source = loadWeatherSource({ storeUrls: stores })));
  return source;
}
