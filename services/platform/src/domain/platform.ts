/**
 * What the platform serves (docs/interface.md §6): products an account may see, filtered; their
 * frames and forecast runs, derived from the catalog and the clock; a frame's value at a point.
 * Plain domain code: the routes hand it parsed input and the caller's grants.
 */
import { NotFoundError } from '@fieldcast/kit';
import {
  type Catalog,
  findProductRun,
  type FrameIndex,
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
  tileAndPixelOf,
  type ZoomLevels,
} from '@fieldcast/weather';
import { frameValueAt, type FrameValue } from './frame-values.js';
import { type CoverageShape, coverageShape, isVisible, matchesFilter, type ProductFilter, visibleProduct } from './products.js';
import { forecastRecord, type ForecastRecord } from './records.js';

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
  ) {
    this.shapes = new Map(catalog.products().map((p) => [p.id, coverageShape(p)]));
  }

  /** GET /products: the products the account sees that pass every filter, in catalog order. */
  list(granted: ReadonlySet<string>, filter: ProductFilter, nowMs: number): ProductRecord[] {
    return this.catalog
      .products()
      .filter((p) => isVisible(p, granted) && matchesFilter(p, this.shapes.get(p.id)!, filter, nowMs))
      .map((p) => this.record(p, nowMs));
  }

  product(ref: string, granted: ReadonlySet<string>, nowMs: number): ProductRecord {
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

  productFrames(ref: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): FrameRecord[] {
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
  productFramesKey(ref: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): string {
    const p = visibleProduct(this.catalog, ref, granted);
    return `${p.id}|${lo(w)}|${hi(w)}|${w.limit}|${w.sort}|${productFramesVersion(p, nowMs)}`;
  }

  productForecasts(ref: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): ForecastRecord[] {
    const p = visibleProduct(this.catalog, ref, granted);
    return productRuns(p, nowMs, lo(w), hi(w), w.limit, w.sort).map((r) => forecastRecord(p, r));
  }

  forecast(id: string, granted: ReadonlySet<string>, nowMs: number): ForecastRecord {
    const { product, run } = this.findRun(id, granted, nowMs);
    return forecastRecord(product, run);
  }

  forecastFrames(id: string, granted: ReadonlySet<string>, w: TimeWindow, nowMs: number): FrameRecord[] {
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
    const value = await frameValueAt(this.weather, frame.product, frame.validMs, longitude, latitude);
    return { ...value, ...tileAndPixelOf(longitude, latitude, this.zoomLevels.native) };
  }

  private async findFrame(id: string, granted: ReadonlySet<string>, nowMs: number): Promise<FrameRef> {
    const frame = await this.frames.find(id, nowMs);
    if (!frame || !isVisible(frame.product, granted)) throw new NotFoundError('frame', id);
    return frame;
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
