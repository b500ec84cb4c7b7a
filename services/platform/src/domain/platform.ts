/**
 * What the platform serves (docs/interface.md §6): products an account may see, filtered; their
 * frames and forecast runs, derived from the catalog and the clock; a frame's value at a point.
 * Plain domain code: the routes hand it parsed input and the caller's grants.
 */
import { NotFoundError } from '@fieldcast/kit';
import {
  type Catalog,
  findProductRun,
  firstFrameFound,
  type FrameIndex,
  frameErrorRun,
  type FrameRecord,
  frameRecord,
  isoInstant,
  type FrameRef,
  type GridSource,
  type ProductDef,
  productFrames,
  productFramesVersion,
  type ProductRecord,
  productRecord,
  productTimeRange,
  type ProductRun,
  productRuns,
  runFrames,
  type SortOrder,
  type SyncedFrame,
  type SyncedProduct,
  type SyncedProducts,
  tileAndPixelOf,
  type ZoomLevels,
} from '@fieldcast/weather';
import { frameUnit, frameValueAt, type FrameValue } from './frame-values.js';
import {
  coverageHolds,
  type CoverageShape,
  coverageShape,
  isVisible,
  matchesFilter,
  type ProductFilter,
  visibleProduct,
} from './products.js';
import { forecastRecord, type ForecastRecord } from './records.js';

const NO_SYNCED: readonly SyncedProduct[] = [];

/** A page of a time-ordered list (public record: start, end, limit, sort). */
export interface TimeWindow {
  start?: number;
  end?: number;
  limit: number;
  sort: SortOrder;
}

export interface Datapoint extends FrameValue {
  tile: { z: number; x: number; y: number };
  pixel: { row: number; column: number };
}

const lo = (w: TimeWindow) => w.start ?? Number.NEGATIVE_INFINITY;
const hi = (w: TimeWindow) => w.end ?? Number.POSITIVE_INFINITY;

export class Platform {
  private readonly shapes: ReadonlyMap<string, CoverageShape>;
  private readonly templates = new Map<string, ProductRecord>();

  constructor(
    private readonly catalog: Catalog,
    private readonly frames: FrameIndex,
    private readonly weather: GridSource,
    /** the frames' zoom levels: from the weather grid, as the tiles area tiles them */
    readonly zoomLevels: ZoomLevels,
    /** the synced sources' products (docs/decisions/0315-synced-sources-as-products.md), when the weather serves synced stores */
    private readonly synced: SyncedProducts | null = null,
  ) {
    this.shapes = new Map(catalog.products().map((p) => [p.id, coverageShape(p)]));
  }

  /**
   * The synced products as the registries describe them at nowMs: a run past its expirationTime is
   * left out, as the model area lists it EXPIRED (docs/decisions/0363-synced-runs-expire-on-the-clock.md).
   */
  private async syncedNow(nowMs: number): Promise<readonly SyncedProduct[]> {
    if (!this.synced) return NO_SYNCED;
    await this.synced.refresh(nowMs);
    return this.synced.products();
  }

  /** A synced product by id or name that the account may see, or undefined when the ref names none. */
  private async syncedProduct(ref: string, granted: ReadonlySet<string>, nowMs: number): Promise<SyncedProduct | undefined> {
    if (!this.synced || this.catalog.product(ref)) return undefined;
    await this.synced.refresh(nowMs);
    const p = this.synced.product(ref);
    if (p && !isVisible(p.def, granted)) throw new NotFoundError('product', ref);
    return p;
  }

  /** GET /products: the products the account sees that pass every filter, in catalog order, then the synced sources' in source order. */
  async list(granted: ReadonlySet<string>, filter: ProductFilter, nowMs: number): Promise<ProductRecord[]> {
    const catalog = this.catalog
      .products()
      .filter((p) => isVisible(p, granted) && matchesFilter(p, this.shapes.get(p.id)!, filter, nowMs))
      .map((p) => this.record(p, nowMs));
    const synced = (await this.syncedNow(nowMs))
      .filter(
        (p) =>
          isVisible(p.def, granted) &&
          matchesFilter(p.def, coverageShape(p.def), filter, nowMs, (lo, hi) => this.synced!.hasFrameIn(p, lo, hi)),
      )
      .map((p) => this.synced!.record(p));
    return [...catalog, ...synced];
  }

  async product(ref: string, granted: ReadonlySet<string>, nowMs: number): Promise<ProductRecord> {
    const synced = await this.syncedProduct(ref, granted, nowMs);
    if (synced) return this.synced!.record(synced);
    return this.record(visibleProduct(this.catalog, ref, granted), nowMs);
  }

  /**
   * The spec 2.4 record at nowMs: only the times move with the clock, so the rest (coverage and
   * layers, cloned once from the catalog) is shared by every answer, which only serialises it.
   */
  private record(p: ProductDef, nowMs: number): ProductRecord {
    let template = this.templates.get(p.id);
    if (!template) this.templates.set(p.id, (template = productRecord(p, nowMs)));
    const range = productTimeRange(p, nowMs);
    return { ...template, startTime: isoInstant(range.startMs), endTime: isoInstant(range.endMs) };
  }

  async productFrames(ref: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): Promise<FrameRecord[]> {
    const synced = await this.syncedProduct(ref, granted, nowMs);
    if (synced) return this.synced!.frames(synced, lo(w), hi(w), w.limit, w.sort).map((f) => frameRecord(f, this.zoomLevels));
    const p = visibleProduct(this.catalog, ref, granted);
    // Ids are read from the frame index once it holds them (docs/decisions/0120-product-frames-and-forecast-runs.md).
    this.frames.warm(nowMs);
    return productFrames(p, nowMs, lo(w), hi(w), w.limit, w.sort, this.frames).map((f) => frameRecord(f, this.zoomLevels));
  }

  /**
   * A key naming everything productFrames' answer depends on: the product, the window and the
   * product's frames version at nowMs (a page kept under it is never stale). Unknown or
   * invisible products are 404 here, before any page is looked up.
   */
  async productFramesKey(ref: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): Promise<string> {
    const synced = await this.syncedProduct(ref, granted, nowMs);
    // A synced product's frames change only with its registry and its runs' expirationTimes (the version names both).
    if (synced) return `${synced.def.id}|${lo(w)}|${hi(w)}|${w.limit}|${w.sort}|${this.synced!.version}`;
    const p = visibleProduct(this.catalog, ref, granted);
    return `${p.id}|${lo(w)}|${hi(w)}|${w.limit}|${w.sort}|${productFramesVersion(p, nowMs)}`;
  }

  async productForecasts(ref: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): Promise<ForecastRecord[]> {
    const synced = await this.syncedProduct(ref, granted, nowMs);
    if (synced) return this.synced!.runs(synced, lo(w), hi(w), w.limit, w.sort).map((r) => forecastRecord(synced.def, r.run));
    const p = visibleProduct(this.catalog, ref, granted);
    return productRuns(p, nowMs, lo(w), hi(w), w.limit, w.sort).map((r) => forecastRecord(p, r));
  }

  async forecast(id: string, granted: ReadonlySet<string>, nowMs: number): Promise<ForecastRecord> {
    const synced = await this.findSyncedRun(id, granted, nowMs);
    if (synced) return forecastRecord(synced.product.def, synced.run.run);
    const { product, run } = this.findRun(id, granted, nowMs);
    return forecastRecord(product, run);
  }

  async forecastFrames(id: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): Promise<FrameRecord[]> {
    const synced = await this.findSyncedRun(id, granted, nowMs);
    if (synced) {
      return this.synced!.runFrames(synced.product, synced.run, lo(w), hi(w), w.limit, w.sort).map((f) => frameRecord(f, this.zoomLevels));
    }
    const { product, run } = this.findRun(id, granted, nowMs);
    return runFrames(product, run, lo(w), hi(w), w.limit, w.sort, this.frames).map((f) => frameRecord(f, this.zoomLevels));
  }

  async frame(id: string, granted: ReadonlySet<string>, nowMs: number): Promise<FrameRecord> {
    return frameRecord(await this.findFrame(id, granted, nowMs), this.zoomLevels);
  }

  /**
   * The frame's value at the point and where the point falls in the frame's native-zoom web
   * mercator tile: the tile and pixel the tiles area renders it in (docs/interface.md §6).
   */
  async datapoint(id: string, latitude: number, longitude: number, granted: ReadonlySet<string>, nowMs: number): Promise<Datapoint> {
    const frame = await this.findFrame(id, granted, nowMs);
    const at = tileAndPixelOf(longitude, latitude, this.zoomLevels.native);
    // Outside the product's coverage its tiles are transparent (docs/interface.md §4): no value.
    const shape = this.shapes.get(frame.product.id) ?? coverageShape(frame.product);
    if (!coverageHolds(shape, [longitude, latitude])) return { value: null, unit: frameUnit(frame.product), ...at };
    // A synced frame is read from its own store: the run or the analysis it was listed from.
    const synced = 'store' in frame ? (frame as SyncedFrame).store : null;
    // A catalog product's forecast frame is its model's run: the weather with that run's error (0496).
    const run = synced ? null : frameErrorRun(frame, this.catalog.models());
    return { ...(await frameValueAt(synced ?? this.weather, frame.product, frame.validMs, longitude, latitude, run)), ...at };
  }

  private async findFrame(id: string, granted: ReadonlySet<string>, nowMs: number): Promise<FrameRef | SyncedFrame> {
    const frame = await firstFrameFound<FrameRef | SyncedFrame>([this.frames.find(id, nowMs), this.synced?.find(id, nowMs)]);
    if (!frame || !isVisible(frame.product, granted)) throw new NotFoundError('frame', id);
    return frame;
  }

  private async findSyncedRun(id: string, granted: ReadonlySet<string>, nowMs: number) {
    if (!this.synced) return undefined;
    await this.synced.refresh(nowMs);
    const found = this.synced.findRun(id);
    return found && isVisible(found.product.def, granted) ? found : undefined;
  }

  private findRun(id: string, granted: ReadonlySet<string>, nowMs: number): { product: ProductDef; run: ProductRun } {
    for (const product of this.catalog.products()) {
      if (!product.hasForecasts || !isVisible(product, granted)) continue;
      const run = findProductRun(product, id, nowMs);
      if (run) return { product, run };
    }
    throw new NotFoundError('forecast', id);
  }
}
