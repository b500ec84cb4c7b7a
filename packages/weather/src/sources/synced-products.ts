/**
 * Products of the synced sources (docs/decisions/0315-synced-sources-as-products.md): for each
 * source with a published run (docs/decisions/0251-synced-stores-registry.md),
 * one product per hourly catalog product whose variable its stores hold, named
 * `<source>.<product>`. Its frames are the frames that exist: the analysis store's hours, then
 * the newest run's steps after them; its forecasts are the runs the registry serves; its coverage
 * is the stores' grid. Every frame names the store it is read from, so a tile or a datapoint of a
 * run's frame reads that run and no other.
 *
 * A snapshot is taken when the registries change (`refresh`, a few `stat` calls when they did
 * not); stores are opened here, beside those the weather serves, because the analysis store grows
 * in place and a frame must read the hours it lists.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fieldcastId, isUuid } from '@fieldcast/ids';
import { productId } from '../catalog/defaults.js';
import { Catalog, frameId, productRecord, type ProductRecord } from '../catalog/catalog.js';
import { type FrameRef } from '../catalog/product-frames.js';
import { cadenceTimes, forecastFrameId, isoInstant, productRunId, type ProductRun, type SortOrder } from '../catalog/product-runs.js';
import type { ProductDef } from '../catalog/schema.js';
import { cellsExtent, type GridSource, type GridSpec, type VariableId } from '../grid/grid-source.js';
import { ZarrSource } from '../zarr/zarr-source.js';
import { servedWeatherOf } from './load-weather-source.js';
import { readSourceRegistry, registryKeepDays, runsServedAt, servedStamp, syncedRunExpirationMs } from './synced-stores.js';

const HOUR_MS = 3_600_000;
/** How long a store no longer listed stays open for the reads begun on it (as ReloadingSource). */
const CLOSE_AFTER_MS = 60_000;
/** Decoded chunks kept per store opened here: frames read one hour of a few tiles at a time. */
const STORE_CACHE_BYTES = 16 * 1024 * 1024;

/** A run of a synced product: the platform forecast record's times, its store and its frames' valid times. */
export interface SyncedProductRun {
  run: ProductRun;
  store: ZarrSource;
  /** the run's steps that the product's variable has, as valid times, ascending */
  validTimes: readonly number[];
}

export interface SyncedProduct {
  def: ProductDef;
  /** the synced source it is read from (`gfs-0p25`) */
  source: string;
  analysis: { store: ZarrSource; startMs: number; endMs: number } | null;
  /** the runs the registry serves, newest first, those past their expirationTime left out */
  runs: readonly SyncedProductRun[];
  startMs: number;
  endMs: number;
}

/** A frame of a synced product, with the store its values are read from. */
export interface SyncedFrame extends FrameRef {
  store: ZarrSource;
}

interface Snapshot {
  stamp: string;
  products: SyncedProduct[];
  byKey: Map<string, SyncedProduct>;
  stores: Map<string, ZarrSource>;
}

const EMPTY: Snapshot = { stamp: '', products: [], byKey: new Map(), stores: new Map() };

/** The name of a source's product made from a catalog product. */
export const syncedProductName = (source: string, base: Pick<ProductDef, 'name'>) => `${source}.${base.name}`;

/** The default styles of a source's product made from `base`: the catalog product's, each named `<source>.<style>`. */
export function syncedDefaultStyles(source: string, base: Pick<ProductDef, 'defaultStyles'>): ProductDef['defaultStyles'] {
  return base.defaultStyles.map((s) => ({ ...s, name: syncedProductName(source, s) }));
}

/**
 * A synced product's layers and default styles (docs/decisions/0506-synced-products-style-what-their-stores-hold.md):
 * the catalog product's layers the source's stores hold (its variable, or a variable of the
 * layer's name), and `styles` drawn from those alone. A colorizer masked by a layer the stores lack
 * is left out; a style whose colorizers all are keeps its first, unmasked, and says so, so the
 * product's default tile draws rather than failing 503 on a mask it cannot read.
 */
function heldStyling(
  base: ProductDef,
  styles: ProductDef['defaultStyles'],
  source: string,
  holds: (variable: VariableId) => boolean,
): Pick<ProductDef, 'styleableLayers' | 'defaultStyles'> {
  const styleableLayers = base.styleableLayers.filter((l) => l.name === base.variable || holds(l.name as VariableId));
  const held = new Set(styleableLayers.map((l) => l.name));
  const defaultStyles = styles.map((style) => {
    const readable = style.colorizers.filter((c) => !c.mask || held.has(c.mask.layerName));
    if (readable.length > 0) return readable.length === style.colorizers.length ? style : { ...style, colorizers: readable };
    const { mask, ...first } = style.colorizers[0]!;
    const description = `${style.description}; here every ${mask!.layerName} in the ${mask!.attributes.join(', ')} colours: the ${source} stores hold no ${mask!.layerName}`;
    return { ...style, description, colorizers: [first] };
  });
  return { styleableLayers, defaultStyles };
}

/**
 * The catalog products a synced source has products of its own for: the hourly ones with frames
 * and forecasts whose variable its stores hold (`holds`).
 */
export function syncedProductBases(catalogProducts: readonly ProductDef[], holds: (variable: VariableId) => boolean): ProductDef[] {
  return catalogProducts.filter((b) => b.variable && b.hasFrames && b.hasForecasts && b.cadenceMinutes === 60 && holds(b.variable));
}

/**
 * Every product the sources may have, whichever variables their runs turn out to hold: its name
 * and the catalog product it is made from. What a name is before a source's first run (a style
 * name held, docs/decisions/0405-synced-default-style-names-held-from-the-start.md; a grant refused,
 * docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
 */
export function possibleSyncedProducts(
  sources: readonly string[],
  catalogProducts: readonly ProductDef[],
): { source: string; name: string; base: ProductDef }[] {
  const bases = syncedProductBases(catalogProducts, () => true);
  return sources.flatMap((source) => bases.map((base) => ({ source, name: syncedProductName(source, base), base })));
}

/**
 * The grid's cells as a GeoJSON MultiPolygon Feature: where its reads give values, within half a
 * cell of the outermost grid points included (docs/decisions/0441-regional-grids-cover-their-cells.md),
 * a polygon on each side of the antimeridian where they cross it (RFC 7946 §3.1.9).
 */
function gridCoverage(g: GridSpec): ProductDef['coverage'] {
  const polygons = cellsExtent(g).map(([west, south, east, north]): [number, number][][] => [
    [
      [west, south],
      [east, south],
      [east, north],
      [west, north],
      [west, south],
    ],
  ]);
  return { type: 'Feature', properties: null, geometry: { type: 'MultiPolygon', coordinates: polygons } };
}

/** The hours of a store's axis for a variable, or null when the store lacks it. */
function axisOf(store: ZarrSource, variable: NonNullable<ProductDef['variable']>): { startMs: number; endMs: number } | null {
  const time = store.arrayFor(variable)?.time;
  if (!time || time.length === 0) return null;
  return { startMs: time.startMs, endMs: time.startMs + (time.length - 1) * time.stepMs };
}

export class SyncedProducts {
  private current: Snapshot = EMPTY;
  private loading: Promise<void> | undefined;
  /** the registries' stamp whose snapshot could not be read, so it is not read again at each request */
  private failed: string | undefined;
  /** the registries' stamp at a clock: it changes too when a run reaches its expirationTime */
  private readonly stamp: (nowMs: number) => Promise<string>;
  /** frame ids computed so far, with what they name; checked against the snapshot on lookup */
  private readonly ids = new Map<string, { product: string; initMs: number | null; validMs: number }>();
  private readonly hashed = new Set<string>();
  /** the snapshot whose frames are indexed, or being indexed */
  private indexed: { stamp: string; done: Promise<void> } | undefined;

  constructor(
    private readonly syncDir: string,
    /** the catalog's products the synced products are made from */
    private readonly base: readonly ProductDef[],
  ) {
    this.stamp = servedStamp(syncDir);
  }

  /**
   * Takes a new snapshot when a registry changed or, at `nowMs` (the request's clock), a run it
   * serves reached its expirationTime: that run is then left out, as the model area lists it
   * EXPIRED, whether or not a sync pass took it out of the registry
   * (docs/decisions/0363-synced-runs-expire-on-the-clock.md). Concurrent callers share one.
   */
  refresh(nowMs: number = Date.now()): Promise<void> {
    this.loading ??= this.refreshOnce(nowMs).finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async refreshOnce(nowMs: number): Promise<void> {
    const stamp = await this.stamp(nowMs);
    if (stamp === this.current.stamp || stamp === this.failed) return;
    const previous = this.current;
    let next: Snapshot;
    try {
      next = await this.load(stamp, nowMs, previous.stores);
    } catch {
      // A registry that cannot be read (cut short, or written by another version) leaves the
      // snapshot before it served, as the weather served keeps its stores (reloading-source.ts,
      // whose onError reports it); it is read again once a registry changes.
      this.failed = stamp;
      return;
    }
    this.current = next;
    const gone = [...previous.stores].filter(([key, s]) => next.stores.get(key) !== s).map(([, s]) => s);
    if (gone.length) setTimeout(() => void Promise.all(gone.map((s) => s.close())), CLOSE_AFTER_MS).unref();
  }

  /** A text that changes whenever the products, frames or runs may have. */
  get version(): string {
    return this.current.stamp;
  }

  products(): readonly SyncedProduct[] {
    return this.current.products;
  }

  /** A synced product by id or name. */
  product(ref: string): SyncedProduct | undefined {
    return this.current.byKey.get(isUuid(ref) ? ref.toLowerCase() : ref);
  }

  /** The spec 2.4 record: the catalog product's, with the synced product's names, times and coverage. */
  record(p: SyncedProduct): ProductRecord {
    return { ...productRecord(p.def, p.startMs), startTime: isoInstant(p.startMs), endTime: isoInstant(p.endMs) };
  }

  /**
   * The product's frames with valid time in [lo, hi], in `order`, at most `limit`: the analysis
   * hours, then the newest run's steps after the last of them.
   */
  frames(p: SyncedProduct, lo: number, hi: number, limit: number, order: SortOrder): SyncedFrame[] {
    const a = p.analysis;
    const analysis = a ? cadenceTimes(a.startMs, HOUR_MS, Math.max(lo, a.startMs), Math.min(hi, a.endMs), limit, order) : [];
    const newest = p.runs[0];
    const after = newest ? newest.validTimes.filter((t) => (!a || t > a.endMs) && t >= lo && t <= hi) : [];
    const forecast = (order === 'asc' ? after : [...after].reverse()).map((t) => this.forecastFrame(p, newest!, t));
    const past = analysis.map((t) => this.analysisFrame(p, a!.store, t));
    return (order === 'asc' ? [...past, ...forecast] : [...forecast, ...past]).slice(0, limit);
  }

  /** Whether the product has a frame with valid time in [lo, hi]. */
  hasFrameIn(p: SyncedProduct, lo: number, hi: number): boolean {
    return this.frames(p, lo, hi, 1, 'asc').length > 0;
  }

  /** The runs whose init time lies in [lo, hi], in `order`, at most `limit`. */
  runs(p: SyncedProduct, lo: number, hi: number, limit: number, order: SortOrder): SyncedProductRun[] {
    const inside = p.runs.filter((r) => r.run.initMs >= lo && r.run.initMs <= hi);
    return (order === 'desc' ? inside : [...inside].reverse()).slice(0, limit);
  }

  /** A run of a synced product by its platform forecast id. */
  findRun(id: string): { product: SyncedProduct; run: SyncedProductRun } | undefined {
    const key = id.toLowerCase();
    for (const product of this.current.products) {
      const run = product.runs.find((r) => r.run.id === key);
      if (run) return { product, run };
    }
    return undefined;
  }

  /** A run's frames with valid time in [lo, hi], in `order`, at most `limit`. */
  runFrames(p: SyncedProduct, r: SyncedProductRun, lo: number, hi: number, limit: number, order: SortOrder): SyncedFrame[] {
    const times = r.validTimes.filter((t) => t >= lo && t <= hi);
    return (order === 'asc' ? times : [...times].reverse()).slice(0, limit).map((t) => this.forecastFrame(p, r, t));
  }

  /**
   * A frame by id, of the snapshot the registries describe now. Ids are UUID v5 and cannot be
   * inverted: every frame's id is computed once (an analysis hour, a run's step) and kept with
   * what it names.
   */
  async find(id: string, nowMs: number = Date.now()): Promise<SyncedFrame | undefined> {
    if (!isUuid(id)) return undefined;
    await this.refresh(nowMs);
    await this.index();
    const named = this.ids.get(id.toLowerCase());
    if (!named) return undefined;
    const p = this.current.byKey.get(named.product);
    if (!p) return undefined;
    if (named.initMs === null) {
      const a = p.analysis;
      return a && named.validMs >= a.startMs && named.validMs <= a.endMs ? this.analysisFrame(p, a.store, named.validMs) : undefined;
    }
    const run = p.runs.find((r) => r.run.initMs === named.initMs);
    return run && run.validTimes.includes(named.validMs) ? this.forecastFrame(p, run, named.validMs) : undefined;
  }

  /** Computes the ids of the snapshot's frames not computed yet, once a snapshot; concurrent lookups share it. */
  private index(): Promise<void> {
    const stamp = this.current.stamp;
    if (this.indexed?.stamp !== stamp) this.indexed = { stamp, done: this.indexOnce() };
    return this.indexed.done;
  }

  /** Yields to the event loop between products: a year of hours is about 9,000 digests a product. */
  private async indexOnce(): Promise<void> {
    const live = new Set<string>();
    for (const p of this.current.products) {
      const a = p.analysis;
      if (a) {
        for (let t = a.startMs; t <= a.endMs; t += HOUR_MS) this.remember(p, null, t, live);
      }
      for (const r of p.runs) for (const t of r.validTimes) this.remember(p, r.run.initMs, t, live);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // Ids of frames no longer listed (a trimmed analysis, an expired run) are let go.
    if (this.hashed.size > 2 * live.size) {
      for (const [id, n] of this.ids) if (!live.has(`${n.product}|${n.initMs}|${n.validMs}`)) this.ids.delete(id);
      for (const key of this.hashed) if (!live.has(key)) this.hashed.delete(key);
    }
  }

  private remember(p: SyncedProduct, initMs: number | null, validMs: number, live: Set<string>): void {
    const key = `${p.def.name}|${initMs}|${validMs}`;
    live.add(key);
    if (this.hashed.has(key)) return;
    this.hashed.add(key);
    const id = initMs === null ? frameId(p.def, validMs) : forecastFrameId(p.def, initMs, validMs);
    this.ids.set(id, { product: p.def.name, initMs, validMs });
  }

  private analysisFrame(p: SyncedProduct, store: ZarrSource, validMs: number): SyncedFrame {
    return { id: frameId(p.def, validMs), product: p.def, validMs, run: null, store };
  }

  private forecastFrame(p: SyncedProduct, r: SyncedProductRun, validMs: number): SyncedFrame {
    return { id: forecastFrameId(p.def, r.run.initMs, validMs), product: p.def, validMs, run: r.run, store: r.store };
  }

  /** The snapshot the registries describe at `nowMs`; run stores already open are reused (a published run never changes). */
  private async load(stamp: string, nowMs: number, open: ReadonlyMap<string, ZarrSource>): Promise<Snapshot> {
    const stores = new Map<string, ZarrSource>();
    const opened: ZarrSource[] = [];
    const openStore = async (location: string, reuse: boolean): Promise<ZarrSource> => {
      const key = reuse ? location : `${location}|${stamp}`;
      const before = open.get(key) ?? stores.get(key);
      if (before) {
        stores.set(key, before);
        return before;
      }
      // An id of its own per store and version: the tiles area keys what it samples by it.
      const store = await ZarrSource.open(location, { cacheBytes: STORE_CACHE_BYTES, id: `synced-${fieldcastId('synced-store', key)}` });
      opened.push(store);
      stores.set(key, store);
      return store;
    };
    try {
      const entries = await fs.readdir(this.syncDir, { withFileTypes: true }).catch(() => []);
      const products: SyncedProduct[] = [];
      for (const source of entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()) {
        const dir = path.join(this.syncDir, source);
        const registry = await readSourceRegistry(dir, source);
        // A source whose runs have all expired has no products, as once a sync pass took them out.
        const served = runsServedAt(registry, nowMs);
        if (served.length === 0) continue;
        const keepDays = registryKeepDays(registry);
        // The analysis grows in place: opened again with each registry, so its new hours are read.
        const analysis = registry.analysis ? await openStore(path.join(dir, registry.analysis), false) : null;
        const runs = await Promise.all(
          served.map(async (r) => ({ entry: r, initMs: Date.parse(r.run), store: await openStore(path.join(dir, r.path), true) })),
        );
        const grid = runs[0]!.store.grid;
        const described = new Map(runs[0]!.store.variables().map((v) => [v.id, v.description.toLowerCase()]));
        const holds = (v: VariableId) => runs[0]!.store.arrayFor(v) !== null;
        // A layer is drawn at every frame of the product: from the analysis and each run served, so
        // each of those stores must hold it (an analysis or run synced before its source's precipitation
        // type was: docs/decisions/0502-precipitation-type-synced-from-the-sources.md).
        const drawable = (v: VariableId) => [analysis, ...runs.map((r) => r.store)].every((s) => !s || s.arrayFor(v) !== null);
        for (const base of syncedProductBases(this.base, holds)) {
          const variable = base.variable!;
          const name = syncedProductName(source, base);
          const def: ProductDef = {
            ...base,
            id: productId(name),
            name,
            // restricted when its catalog product is, and opened by that product's grant (docs/decisions/0408-synced-products-granted-with-their-catalog-product.md)
            grantedWith: base.id,
            // The catalog's description names the synthetic world: this one names the source.
            description: `Hourly ${described.get(variable) ?? variable} from the ${source} runs synced from its upstream archive: the analysis hours, then the newest run's steps`,
            source,
            startTime: isoInstant(0),
            horizonHours: 0,
            coverage: gridCoverage(grid),
            hasFrames: true,
            hasForecasts: true,
            ...heldStyling(base, syncedDefaultStyles(source, base), source, drawable),
          };
          const productRuns: SyncedProductRun[] = runs.flatMap(({ entry, initMs, store }) => {
            const axis = axisOf(store, variable);
            if (!axis) return [];
            const validTimes = entry.steps.map((h) => initMs + h * HOUR_MS).filter((t) => t >= axis.startMs && t <= axis.endMs);
            const run: ProductRun = {
              id: productRunId(def, initMs),
              initMs,
              producingMs: Date.parse(entry.createdAt ?? entry.syncedAt),
              creationMs: Date.parse(entry.syncedAt),
              expirationMs: syncedRunExpirationMs(initMs, keepDays),
            };
            return [{ run, store, validTimes }];
          });
          const axis = analysis ? axisOf(analysis, variable) : null;
          const a = analysis && axis ? { store: analysis, ...axis } : null;
          const times = [...(a ? [a.startMs, a.endMs] : []), ...(productRuns[0]?.validTimes ?? [])];
          if (times.length === 0) continue;
          products.push({ def, source, analysis: a, runs: productRuns, startMs: Math.min(...times), endMs: Math.max(...times) });
        }
      }
      const byKey = new Map<string, SyncedProduct>();
      for (const p of products) {
        byKey.set(p.def.id, p);
        byKey.set(p.def.name, p);
      }
      return { stamp, products, byKey, stores };
    } catch (error) {
      await Promise.all(opened.map((s) => s.close()));
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.current.stores.values()].map((s) => s.close()));
    this.current = EMPTY;
  }
}

/**
 * The frame the first of an id's lookups names, or undefined once none does. The catalog's frame
 * index names a recent frame within a chunk of its growth but says it names none only once it is
 * whole, seconds into a process (docs/decisions/0321-frame-index-newest-first.md): a synced
 * frame's lookup is not made to wait for that.
 */
export function firstFrameFound<F extends FrameRef>(lookups: readonly (Promise<F | undefined> | undefined)[]): Promise<F | undefined> {
  const made = lookups.filter((l) => l !== undefined);
  return new Promise((resolve, reject) => {
    let left = made.length;
    if (left === 0) resolve(undefined);
    for (const lookup of made) {
      lookup.then((frame) => (frame !== undefined ? resolve(frame) : --left === 0 && resolve(undefined)), reject);
    }
  });
}

const bySyncDir = new Map<string, SyncedProducts>();

/** The synced products of a sync dir, one per process: the platform and tiles areas of an embedded fleet share it. */
export function syncedProductsOf(syncDir: string, base: readonly ProductDef[]): SyncedProducts {
  let s = bySyncDir.get(syncDir);
  if (!s) bySyncDir.set(syncDir, (s = new SyncedProducts(syncDir, base)));
  return s;
}

const withoutProducts = new WeakMap<Catalog, Catalog>();

/**
 * The catalog whose products an area serves beside the synced ones: the whole catalog while the
 * synthetic world answers, and without its products under FIELDCAST_SYNTHETIC=off, whose frames
 * would all be refused (docs/decisions/0256-synthetic-off.md, 0315): then only synced products
 * are listed, and a catalog product is 404 like any unknown one.
 */
export function catalogServed(catalog: Catalog, weather: GridSource): Catalog {
  if (servedWeatherOf(weather).synthetic) return catalog;
  let c = withoutProducts.get(catalog);
  if (!c) withoutProducts.set(catalog, (c = new Catalog([], catalog.models(), catalog.transferProducts())));
  return c;
}
