/**
 * Frames as the tiles area finds and lists them: the catalog's frames, ids and records, the same
 * as the platform area's (packages/weather/src/catalog/product-frames.ts,
 * docs/decisions/0120-product-frames-and-forecast-runs.md, docs/decisions/0131-frames-in-the-tiles-area.md).
 */
import {
  frameFinalMs,
  frameRecord,
  type FrameIndex,
  type FrameRecord,
  type FrameRef,
  frameZoomLevels,
  type ProductDef,
  productFrames,
  type ZoomLevels,
} from '@fieldcast/weather';

export type { FrameRef } from '@fieldcast/weather';

/** Frames of a product, newest first, at most `limit` (the tiles area's frames.json). */
export function recentFrames(p: ProductDef, nowMs: number, limit: number, index: FrameIndex): FrameRef[] {
  index.warm(nowMs);
  return productFrames(p, nowMs, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, limit, 'desc', index);
}

/**
 * Whether the frame may still be drawn differently after `boundaryMs` (the forecast boundary): a
 * forecast run's frame (valid after the current hour: docs/architecture.md §6), or an analysis
 * frame whose period is not over, such as today's daily maximum, part of whose hours are forecast.
 */
export function frameMayChange(frame: FrameRef, boundaryMs: number): boolean {
  return frame.run !== null || frameFinalMs(frame.product, frame.validMs) > boundaryMs;
}

/** A frame's zoom levels: from the weather grid's cell size (catalog frame-tiles). */
export function zoomLevelsOf(cellDegrees: number): ZoomLevels {
  return frameZoomLevels(cellDegrees);
}

/** The public record's frame record, as the platform area serves it. */
export function tileFrameRecord(frame: FrameRef, zoomLevels: ZoomLevels): FrameRecord {
  return frameRecord(frame, zoomLevels);
}
