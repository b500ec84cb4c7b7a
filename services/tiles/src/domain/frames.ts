/**
 * Frames as the tiles area finds and shows them (docs/interface.md §4, §6;
 * docs/decisions/0131-frames-in-the-tiles-area.md). Frames are derived from the catalog, never
 * stored: a frame id is UUID v5 of its product and valid time (catalog frameId), which cannot be
 * turned back into the two, so the area keeps an index from id to frame over the frames a map
 * client asks tiles of: from TILE_HISTORY_DAYS before the current hour to each product's last
 * frame. The index grows as the hours pass and is rebuilt from scratch once a day, so it stays
 * bounded (about 60,000 ids with the default catalog).
 */
import {
  type Catalog,
  forecastBoundaryMs,
  frameId,
  frameTimes,
  frameZoomLevels,
  type ProductDef,
  productTimeRange,
  TILE_SIZE,
  type ZoomLevels,
} from '@fieldcast/weather';
import type { TileFrame } from '@fieldcast/schemas';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** How far back tiles are served: a year and a month, so a season can be compared with the last. */
export const TILE_HISTORY_DAYS = 400;

export interface FrameRef {
  id: string;
  product: ProductDef;
  validMs: number;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** An index from frame id to product and valid time over the frames tiles are served for. */
export class FrameIndex {
  private byId = new Map<string, FrameRef>();
  /** per product, the newest valid time indexed */
  private newest = new Map<string, number>();
  private builtDay = NaN;

  constructor(
    private readonly catalog: Catalog,
    private readonly now: () => Date,
  ) {}

  /** The frame of this id, if it is a frame of a product with frames inside the served window. */
  find(id: string): FrameRef | undefined {
    this.refresh();
    return this.byId.get(id.toLowerCase());
  }

  /** The oldest valid time served at the given instant. */
  oldestServedMs(nowMs: number): number {
    return forecastBoundaryMs(nowMs) - TILE_HISTORY_DAYS * DAY_MS;
  }

  private refresh(): void {
    const nowMs = this.now().getTime();
    const day = Math.floor(nowMs / DAY_MS);
    if (day !== this.builtDay) {
      this.byId = new Map();
      this.newest = new Map();
      this.builtDay = day;
    }
    const oldest = this.oldestServedMs(nowMs);
    for (const p of this.catalog.products()) {
      if (!p.hasFrames || p.cadenceMinutes === 0) continue;
      const { endMs } = productTimeRange(p, nowMs);
      const from = (this.newest.get(p.id) ?? oldest - 1) + 1;
      if (from > endMs) continue;
      for (const t of frameTimes(p, nowMs, from, endMs)) {
        const id = frameId(p, t);
        this.byId.set(id, { id, product: p, validMs: t });
      }
      this.newest.set(p.id, endMs);
    }
  }
}

/** Frames of a product, newest first, at most `limit` (the tiles area's frames.json). */
export function recentFrames(p: ProductDef, nowMs: number, limit: number): FrameRef[] {
  const { startMs, endMs } = productTimeRange(p, nowMs);
  const step = p.cadenceMinutes * MINUTE_MS;
  if (!p.hasFrames || step === 0) return [];
  // Only the newest `limit` cadence steps can hold them: no need to walk the product's history.
  const from = Math.max(startMs, endMs - (limit - 1) * step);
  return frameTimes(p, nowMs, from, endMs)
    .reverse()
    .slice(0, limit)
    .map((t) => ({ id: frameId(p, t), product: p, validMs: t }));
}

/** Whether the frame holds forecast values (valid after the current hour: docs/architecture.md §6). */
export function isForecastFrame(frame: FrameRef, nowMs: number): boolean {
  return frame.validMs > forecastBoundaryMs(nowMs);
}

/** A frame's zoom levels: from the weather grid's cell size (catalog frame-tiles). */
export function zoomLevelsOf(cellDegrees: number): ZoomLevels {
  return frameZoomLevels(cellDegrees);
}

/**
 * The public record's frame record. A frame of the past was made by the analysis of its hour
 * (run and creation at the end of its aggregation period, never expiring); a forecast frame by
 * the run of the current hour, which the next hour's run replaces.
 */
export function frameRecord(frame: FrameRef, nowMs: number, zoomLevels: ZoomLevels): TileFrame {
  const boundary = forecastBoundaryMs(nowMs);
  const forecast = isForecastFrame(frame, nowMs);
  const madeAt = forecast ? boundary : frame.validMs + frame.product.aggregationPeriodInMinutes * MINUTE_MS;
  return {
    id: frame.id,
    validTime: iso(frame.validMs),
    runTime: iso(forecast ? boundary : frame.validMs),
    creationTime: iso(madeAt),
    expirationTime: forecast ? iso(boundary + HOUR_MS) : null,
    zoomLevels,
    mediaTypes: ['image/png'],
    tileSize: TILE_SIZE,
    forecast: null,
    product: `/products/${frame.product.id}`,
  };
}
