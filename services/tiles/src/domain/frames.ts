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
import { setImmediate as nextTurn } from 'node:timers/promises';

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

/** Ids hashed between two turns of the event loop while the index is built (about 30 ms of SHA-1). */
const IDS_PER_TURN = 1024;

/**
 * An index from frame id to product and valid time over the frames tiles are served for. It is
 * built in slices, giving the event loop back between them, newest frames first, so a request
 * for a recent frame waits only for the slices before it; it is brought up to date once an hour
 * and rebuilt once a day.
 */
export class FrameIndex {
  private byId = new Map<string, FrameRef>();
  /** per product, the oldest and newest valid times indexed */
  private covered = new Map<string, { oldest: number; newest: number }>();
  private builtDay = NaN;
  private builtHour = NaN;
  private building: Promise<void> | null = null;

  constructor(
    private readonly catalog: Catalog,
    private readonly now: () => Date,
  ) {}

  /** The frame of this id, if it is a frame of a product with frames inside the served window. */
  async find(id: string): Promise<FrameRef | undefined> {
    const key = id.toLowerCase();
    const hit = this.byId.get(key);
    if (hit && this.current()) return hit;
    await this.update();
    return this.byId.get(key);
  }

  /** The oldest valid time served at the given instant. */
  oldestServedMs(nowMs: number): number {
    return forecastBoundaryMs(nowMs) - TILE_HISTORY_DAYS * DAY_MS;
  }

  private current(): boolean {
    return Math.floor(this.now().getTime() / HOUR_MS) === this.builtHour;
  }

  private update(): Promise<void> {
    this.building ??= this.build().finally(() => (this.building = null));
    return this.building;
  }

  private async build(): Promise<void> {
    const nowMs = this.now().getTime();
    const day = Math.floor(nowMs / DAY_MS);
    if (day !== this.builtDay) {
      this.byId = new Map();
      this.covered = new Map();
      this.builtDay = day;
    }
    const oldest = this.oldestServedMs(nowMs);
    let hashed = 0;
    const add = async (p: ProductDef, times: number[]) => {
      for (const t of times) {
        const id = frameId(p, t);
        this.byId.set(id, { id, product: p, validMs: t });
        if (++hashed % IDS_PER_TURN === 0) await nextTurn();
      }
    };
    // Newest first, product by product: the new hours (the last day at a fresh start) ...
    for (const p of this.catalog.products()) {
      if (!p.hasFrames || p.cadenceMinutes === 0) continue;
      const { endMs } = productTimeRange(p, nowMs);
      const had = this.covered.get(p.id);
      const from = had ? had.newest + 1 : Math.max(oldest, forecastBoundaryMs(nowMs) - DAY_MS);
      await add(p, frameTimes(p, nowMs, from, endMs).reverse());
      this.covered.set(p.id, { oldest: had?.oldest ?? from, newest: endMs });
    }
    // ... which requests for recent frames may use at once, while the history is indexed.
    this.builtHour = Math.floor(nowMs / HOUR_MS);
    for (const p of this.catalog.products()) {
      const had = this.covered.get(p.id);
      if (!had || had.oldest <= oldest) continue;
      await add(p, frameTimes(p, nowMs, oldest, had.oldest - 1).reverse());
      this.covered.set(p.id, { ...had, oldest });
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
