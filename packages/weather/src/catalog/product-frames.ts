/**
 * Frames of products (public record, platform area: id, validTime, runTime, creationTime,
 * expirationTime, zoomLevels, mediaTypes, tileSize, forecast, product), listed from the cadence
 * and found by id through an index of their name-based ids
 * (docs/decisions/0120-product-frames-and-forecast-runs.md).
 */
import { createHash } from 'node:crypto';
import { FIELDCAST_NAMESPACE } from '@fieldcast/ids';
import { frameId, productTimeRange } from './catalog.js';
import { TILE_SIZE, type ZoomLevels } from './frame-tiles.js';
import {
  analysisEndMs,
  cadenceTimes,
  forecastFrameId,
  isoInstant,
  latestProductRun,
  productRuns,
  runValidRange,
  type ProductRun,
  type SortOrder,
} from './product-runs.js';
import type { ProductDef } from './schema.js';

const MINUTE_MS = 60_000;

/** Media types a frame is served in: PNG tiles from the tiles area (docs/interface.md §4). */
export const FRAME_MEDIA_TYPES: readonly string[] = ['image/png'];

/** One frame: an analysis frame (run null) or a frame of a forecast run. */
export interface FrameRef {
  id: string;
  product: ProductDef;
  validMs: number;
  run: ProductRun | null;
}

export interface FrameRecord {
  id: string;
  validTime: string;
  runTime: string;
  creationTime: string;
  expirationTime: string | null;
  zoomLevels: ZoomLevels;
  mediaTypes: string[];
  tileSize: number;
  forecast: string | null;
  product: string;
}

export function analysisFrame(p: ProductDef, validMs: number): FrameRef {
  return { id: frameId(p, validMs), product: p, validMs, run: null };
}

export function forecastFrame(p: ProductDef, run: ProductRun, validMs: number): FrameRef {
  return { id: forecastFrameId(p, run.initMs, validMs), product: p, validMs, run };
}

/**
 * The record of a frame. An analysis frame is its own run (runTime = validTime), created at its
 * valid time and never expires; a forecast frame carries its run's init, publication and
 * expiration times and links the run.
 */
export function frameRecord(f: FrameRef, zoomLevels: ZoomLevels): FrameRecord {
  return {
    id: f.id,
    validTime: isoInstant(f.validMs),
    runTime: isoInstant(f.run ? f.run.initMs : f.validMs),
    creationTime: isoInstant(f.run ? f.run.creationMs : f.validMs),
    expirationTime: f.run ? isoInstant(f.run.expirationMs) : null,
    zoomLevels: { ...zoomLevels },
    mediaTypes: [...FRAME_MEDIA_TYPES],
    tileSize: TILE_SIZE,
    forecast: f.run ? `/forecasts/${f.run.id}` : null,
    product: `/products/${f.product.id}`,
  };
}

/**
 * The product's frames with valid time in [startMs, endMs] at nowMs, one per valid time: analysis
 * frames up to the forecast boundary, then the latest published run's frames; in `order`, at
 * most `limit`. Work is proportional to `limit`, whatever the product's length.
 */
export function productFrames(
  p: ProductDef,
  nowMs: number,
  startMs: number,
  endMs: number,
  limit: number,
  order: SortOrder = 'desc',
): FrameRef[] {
  if (!p.hasFrames || p.cadenceMinutes === 0) return [];
  const range = productTimeRange(p, nowMs);
  const step = p.cadenceMinutes * MINUTE_MS;
  const lo = Math.max(startMs, range.startMs);
  const hi = Math.min(endMs, range.endMs);
  const analysisEnd = analysisEndMs(p, nowMs, range.endMs);
  const latest = latestProductRun(p, nowMs);
  return cadenceTimes(range.startMs, step, lo, hi, limit, order).map((t) =>
    analysisEnd !== null && t <= analysisEnd ? analysisFrame(p, t) : forecastFrame(p, latest!, t),
  );
}

/** Whether the product has at least one frame with valid time in [startMs, endMs] at nowMs. */
export function hasFrameIn(p: ProductDef, nowMs: number, startMs: number, endMs: number): boolean {
  return productFrames(p, nowMs, startMs, endMs, 1, 'asc').length > 0;
}

/** A run's frames with valid time in [startMs, endMs], in `order`, at most `limit`. */
export function runFrames(
  p: ProductDef,
  run: ProductRun,
  startMs: number,
  endMs: number,
  limit: number,
  order: SortOrder = 'desc',
): FrameRef[] {
  const range = runValidRange(p, run);
  if (!range) return [];
  const step = p.cadenceMinutes * MINUTE_MS;
  return cadenceTimes(range.startMs, step, Math.max(startMs, range.startMs), Math.min(endMs, range.endMs), limit, order).map((t) =>
    forecastFrame(p, run, t),
  );
}

/** Empty slot marker: product index 0 is stored as 1, so 0 means free. */
const FREE = 0;
/** Hashes computed between yields to the event loop while the index grows. */
const CHUNK = 4096;

/** The first 64 bits of a UUID (its first 16 hex digits) as two 32-bit halves. */
function keyOfUuid(id: string): [number, number] | null {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return null;
  return [Number.parseInt(hex.slice(0, 8), 16) >>> 0, Number.parseInt(hex.slice(8, 16), 16) >>> 0];
}

/**
 * Finds a frame by id. Ids are SHA-1 based (UUID v5), so they cannot be inverted: analysis frames
 * (about 100,000 per hourly product over ten years) are indexed by the first 64 bits of their id
 * in an open-addressed table of typed arrays (16 bytes a frame), grown as time adds frames; a hit
 * is confirmed by recomputing the full id. Forecast frames, a few thousand per live run, are
 * kept per run while the run lives. Built on the first lookup, yielding to the event loop between
 * chunks, so no request waits behind the whole build.
 */
export class FrameIndex {
  private hi = new Uint32Array(0);
  private lo = new Uint32Array(0);
  private productSlot = new Uint8Array(0);
  private frameNo = new Uint32Array(0);
  private size = 0;
  /** per product: valid times indexed so far, [0, covered) of its cadence */
  private readonly covered: number[];
  private readonly runs = new Map<string, Map<string, number>>();
  private growing: Promise<void> | null = null;
  private readonly namespace = Buffer.from(FIELDCAST_NAMESPACE.replace(/-/g, ''), 'hex');

  constructor(private readonly products: readonly ProductDef[]) {
    if (products.length > 255) throw new RangeError('the frame index holds at most 255 products');
    this.covered = products.map(() => 0);
    this.resize(1 << 16);
  }

  /** The frame with this id at nowMs, if it is one of a product's frames or of a live run's. */
  async find(id: string, nowMs: number): Promise<FrameRef | undefined> {
    const key = keyOfUuid(id);
    if (!key) return undefined;
    const lower = id.toLowerCase();
    await this.grow(nowMs);
    const hit = this.lookup(key, lower, nowMs);
    if (hit) return hit;
    return this.findForecastFrame(lower, nowMs);
  }

  /** Frames indexed (analysis frames), for tests and benches. */
  get count(): number {
    return this.size;
  }

  private lookup([a, b]: [number, number], id: string, nowMs: number): FrameRef | undefined {
    const mask = this.hi.length - 1;
    for (let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask; this.productSlot[i] !== FREE; i = (i + 1) & mask) {
      if (this.hi[i] !== a || this.lo[i] !== b) continue;
      const p = this.products[this.productSlot[i]! - 1]!;
      const validMs = Date.parse(p.startTime) + this.frameNo[i]! * p.cadenceMinutes * MINUTE_MS;
      const range = productTimeRange(p, nowMs);
      const end = analysisEndMs(p, nowMs, range.endMs);
      if (end === null || validMs > end) continue;
      if (frameId(p, validMs) === id) return analysisFrame(p, validMs);
    }
    return undefined;
  }

  private findForecastFrame(id: string, nowMs: number): FrameRef | undefined {
    const live = new Set<string>();
    for (const p of this.products) {
      for (const run of productRuns(p, nowMs, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)) {
        live.add(run.id);
        let ids = this.runs.get(run.id);
        if (!ids) {
          ids = new Map(
            runFrames(p, run, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY).map((f) => [f.id, f.validMs]),
          );
          this.runs.set(run.id, ids);
        }
        const validMs = ids.get(id);
        if (validMs !== undefined) return forecastFrame(p, run, validMs);
      }
    }
    for (const runId of this.runs.keys()) if (!live.has(runId)) this.runs.delete(runId);
    return undefined;
  }

  /** Indexes every analysis frame up to nowMs; one growth at a time, shared by concurrent lookups. */
  private async grow(nowMs: number): Promise<void> {
    while (this.growing) await this.growing;
    if (!this.behind(nowMs)) return;
    this.growing = this.growTo(nowMs).finally(() => {
      this.growing = null;
    });
    await this.growing;
  }

  private behind(nowMs: number): boolean {
    return this.products.some((p, i) => this.target(p, nowMs) > this.covered[i]!);
  }

  /** How many valid times of p are analysis frames at nowMs. */
  private target(p: ProductDef, nowMs: number): number {
    const end = analysisEndMs(p, nowMs, productTimeRange(p, nowMs).endMs);
    if (end === null) return 0;
    return Math.floor((end - Date.parse(p.startTime)) / (p.cadenceMinutes * MINUTE_MS)) + 1;
  }

  private async growTo(nowMs: number): Promise<void> {
    let done = 0;
    for (let i = 0; i < this.products.length; i++) {
      const p = this.products[i]!;
      const target = this.target(p, nowMs);
      const origin = Date.parse(p.startTime);
      const step = p.cadenceMinutes * MINUTE_MS;
      const prefix = `frame:${p.name}:`;
      for (let k = this.covered[i]!; k < target; k++) {
        if ((this.size + 1) * 2 > this.hi.length) this.resize(this.hi.length * 2);
        const digest = createHash('sha1')
          .update(this.namespace)
          .update(prefix + isoInstant(origin + k * step), 'utf8')
          .digest();
        // UUID v5 (RFC 9562 section 5.5): the version nibble replaces the high half of byte 6.
        digest[6] = (digest[6]! & 0x0f) | 0x50;
        this.insert(digest.readUInt32BE(0), digest.readUInt32BE(4), i + 1, k);
        this.covered[i] = k + 1;
        if (++done % CHUNK === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }

  private insert(a: number, b: number, slot: number, k: number): void {
    const mask = this.hi.length - 1;
    let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    while (this.productSlot[i] !== FREE) i = (i + 1) & mask;
    this.hi[i] = a;
    this.lo[i] = b;
    this.productSlot[i] = slot;
    this.frameNo[i] = k;
    this.size += 1;
  }

  private resize(capacity: number): void {
    const { hi, lo, productSlot, frameNo } = this;
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.productSlot = new Uint8Array(capacity);
    this.frameNo = new Uint32Array(capacity);
    this.size = 0;
    for (let i = 0; i < productSlot.length; i++) {
      if (productSlot[i] !== FREE) this.insert(hi[i]!, lo[i]!, productSlot[i]!, frameNo[i]!);
    }
  }
}
