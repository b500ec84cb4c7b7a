/**
 * Transfer products of the synced sources (docs/decisions/0340-synced-transfer-products.md): for
 * each source whose stores the weather serves (docs/decisions/0251-synced-stores-registry.md),
 * one product per dated catalog transfer product whose variables its stores hold, named
 * `<source>.<transfer product>` as the platform area names its products
 * (docs/decisions/0315-synced-sources-as-products.md). Its grid is the stores' own, cell for
 * cell, and its files are read from that source's stores alone, stitched in time (its newest run,
 * its analysis, its older runs: docs/decisions/0295-time-stitching-on-one-grid.md), never from
 * another source or the synthetic world.
 *
 * The stores are those the served weather holds open, found by their place under the sync dir,
 * so the products change exactly when the weather served does (weatherVersion), with no
 * registry read of their own.
 */
import * as path from 'node:path';
import {
  type Catalog,
  CompositeSource,
  type GridSource,
  type GridSpec,
  NoSyntheticSource,
  ReloadingSource,
  servedWeatherOf,
  type TransferProductDef,
  type VariableId,
  weatherVersion,
  ZarrSource,
} from '@fieldcast/weather';
import { resolveProduct, type SyncedOrigin, type TransferProduct } from './datasets.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The name of a source's transfer product made from a catalog transfer product. */
const syncedTransferName = (source: string, base: Pick<TransferProductDef, 'name'>) => `${source}.${base.name}`;

/**
 * A synced source's stores as one weather: stitched in time, with nothing behind them, so a read
 * they do not hold is refused rather than answered by another source. The same on the event loop
 * and in a thread (dataset-worker.ts), so both write the same bytes.
 */
export function syncedWeather(source: string, stores: readonly GridSource[]): GridSource {
  return new CompositeSource([...stores, new NoSyntheticSource()], { id: source, label: `${source} (synced)` });
}

/** The served weather's Zarr stores under the sync dir, grouped by source in the order served (newest run, analysis, older runs). */
function servedSyncedStores(served: GridSource, syncDir: string): Map<string, ZarrSource[]> {
  const composite = served instanceof ReloadingSource ? served.source : served;
  const out = new Map<string, ZarrSource[]>();
  if (!(composite instanceof CompositeSource)) return out;
  for (const store of composite.sources) {
    if (!(store instanceof ZarrSource)) continue;
    const relative = path.relative(syncDir, path.resolve(store.location));
    const source = relative.split(path.sep)[0];
    if (!source || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    out.set(source, [...(out.get(source) ?? []), store]);
  }
  return out;
}

/** Whether a store's axis for the variable has a step at ms. */
function storeHolds(store: ZarrSource, variable: VariableId, ms: number): boolean {
  const time = store.arrayFor(variable)?.time;
  if (!time || time.stepMs <= 0) return false;
  const k = (ms - time.startMs) / time.stepMs;
  return Number.isInteger(k) && k >= 0 && k < time.length;
}

/** What the file's title says a product holds: its variables, and a file per day of the hours synced or a file per step. */
function describe(product: TransferProduct, source: string): string {
  const what = product.variables.map((v) => v.description).join(' and ');
  const hours = product.cadenceMs / HOUR_MS;
  const each = product.cadenceMs === DAY_MS ? 'day' : hours === 1 ? 'hour' : `${hours} hours`;
  return `${what[0]!.toUpperCase()}${what.slice(1)} from the ${source} runs synced from its upstream archive, on its own grid: one ${product.def.format} file per ${each} of the hours synced`;
}

/**
 * The side of a grid's cells when they are square, else null: a file's cells are square
 * (GeoTIFF's one pixel size, docs/decisions/0162-dataset-grids-and-names.md). A store's spacings
 * are computed from its coordinates, (last - first) / (n - 1), so two equal ones, 0.1 degree of a
 * store written to the micro-degree, may differ in their last bits: equal within 1e-9 of a cell.
 */
export function squareCellSide(grid: Pick<GridSpec, 'dLat' | 'dLon'>): number | null {
  return Math.abs(grid.dLat - grid.dLon) <= 1e-9 * Math.abs(grid.dLat) ? grid.dLat : null;
}

/** A source's products: one per dated catalog transfer product whose variables its stores hold, on the grid of its newest run. */
function productsOf(source: string, stores: ZarrSource[], catalog: Catalog): TransferProduct[] {
  const grid = stores[0]!.grid;
  const d = squareCellSide(grid);
  if (d === null) return [];
  const bbox: TransferProductDef['bbox'] = [
    grid.lon0 - d / 2,
    grid.lat0 - d / 2,
    grid.lon0 + (grid.nLon - 0.5) * d,
    grid.lat0 + (grid.nLat - 0.5) * d,
  ];
  const weather = syncedWeather(source, stores);
  return catalog.transferProducts().flatMap((base) => {
    const def: TransferProductDef = { ...base, name: syncedTransferName(source, base), bbox, resolution: d };
    const resolved = resolveProduct(def, weather);
    // A static field (terrain) is not what a run brings.
    if (typeof resolved === 'string' || resolved.stepMs === 0) return [];
    const ids = resolved.variables.map((v) => v.id);
    const synced: SyncedOrigin = {
      source,
      weather,
      stores: stores.map((s) => s.location),
      version: JSON.stringify(stores.map((s) => [s.location, ids.map((v) => s.arrayFor(v)?.time ?? null)])),
      holds: (variable, ms) => stores.some((s) => storeHolds(s, variable, ms)),
    };
    const product = { ...resolved, synced };
    return [{ ...product, def: { ...def, description: describe(product, source) } }];
  });
}

/** The synced sources' transfer products of the weather served now, made again when it changes. */
export class SyncedTransferProducts {
  private snapshot: { version: string; products: TransferProduct[] } | undefined;

  constructor(
    private readonly catalog: Catalog,
    private readonly served: GridSource,
  ) {}

  /** In source name order, each source's in catalog order. */
  products(): TransferProduct[] {
    const { syncDir } = servedWeatherOf(this.served);
    if (!syncDir) return [];
    const version = weatherVersion(this.served);
    if (this.snapshot?.version !== version) {
      const bySource = [...servedSyncedStores(this.served, path.resolve(syncDir))].sort(([a], [b]) => a.localeCompare(b));
      this.snapshot = { version, products: bySource.flatMap(([source, stores]) => productsOf(source, stores, this.catalog)) };
    }
    return this.snapshot.products;
  }
}
