/**
 * Frames of products (public record, platform area: id, validTime, runTime, creationTime,
 * expirationTime, zoomLevels, mediaTypes, tileSize, forecast, product), listed from the cadence
 * and found by id through an index of their name-based ids
 * (docs/decisions/0120-product-frames-and-forecast-runs.md).
 */
import { fieldcastIdBytes, isUuid } from '@fieldcast/ids';
import { forecastBoundaryMs, type VariableId } from '../grid/grid-source.js';
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

/** How frame ids are had: computed (the default), or read from a FrameIndex that holds them. */
export interface FrameIds {
  analysis(p: ProductDef, validMs: number): string;
  forecast(p: ProductDef, run: ProductRun, validMs: number): string;
}

export const COMPUTED_FRAME_IDS: FrameIds = {
  analysis: (p, validMs) => frameId(p, validMs),
  forecast: (p, run, validMs) => forecastFrameId(p, run.initMs, validMs),
};

export function analysisFrame(p: ProductDef, validMs: number, ids: FrameIds = COMPUTED_FRAME_IDS): FrameRef {
  return { id: ids.analysis(p, validMs), product: p, validMs, run: null };
}

export function forecastFrame(p: ProductDef, run: ProductRun, validMs: number, ids: FrameIds = COMPUTED_FRAME_IDS): FrameRef {
  return { id: ids.forecast(p, run, validMs), product: p, validMs, run };
}

/**
 * The record of a frame. An analysis frame is its own run (runTime = validTime), created at its
 * valid time and never expires; a forecast frame carries its run's init, publication and
 * expiration times and links the run.
 */
export function frameRecord(f: FrameRef, zoomLevels: ZoomLevels): FrameRecord {
  const validTime = isoInstant(f.validMs);
  return {
    id: f.id,
    validTime,
    runTime: f.run ? isoInstant(f.run.initMs) : validTime,
    creationTime: f.run ? isoInstant(f.run.creationMs) : validTime,
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
  ids: FrameIds = COMPUTED_FRAME_IDS,
): FrameRef[] {
  if (!p.hasFrames || p.cadenceMinutes === 0) return [];
  const range = productTimeRange(p, nowMs);
  const step = p.cadenceMinutes * MINUTE_MS;
  const lo = Math.max(startMs, range.startMs);
  const hi = Math.min(endMs, range.endMs);
  const analysisEnd = analysisEndMs(p, nowMs, range.endMs);
  const latest = latestProductRun(p, nowMs);
  return cadenceTimes(range.startMs, step, lo, hi, limit, order).map((t) =>
    analysisEnd !== null && t <= analysisEnd ? analysisFrame(p, t, ids) : forecastFrame(p, latest!, t, ids),
  );
}

/**
 * What productFrames' answer for the product depends on at nowMs, as text: the forecast boundary
 * (the analysis frames' end and the product's range) and the latest published run (its frames
 * past the boundary). Two instants with the same text give the same frames for every window, so
 * a page kept under it is never stale (docs/decisions/0120-product-frames-and-forecast-runs.md).
 */
export function productFramesVersion(p: ProductDef, nowMs: number): string {
  return `${forecastBoundaryMs(nowMs)}|${latestProductRun(p, nowMs)?.initMs ?? ''}`;
}

/** Whether the product has at least one frame with valid time in [startMs, endMs] at nowMs (arithmetic only, no ids). */
export function hasFrameIn(p: ProductDef, nowMs: number, startMs: number, endMs: number): boolean {
  if (!p.hasFrames || p.cadenceMinutes === 0) return false;
  const range = productTimeRange(p, nowMs);
  return (
    cadenceTimes(range.startMs, p.cadenceMinutes * MINUTE_MS, Math.max(startMs, range.startMs), Math.min(endMs, range.endMs), 1, 'asc')
      .length > 0
  );
}

/**
 * The last valid time at nowMs that the products with frames over `variable` show: the latest of
 * their last frames, so for a forecast product the newest published run's last valid time
 * (docs/decisions/0120-product-frames-and-forecast-runs.md). A transfer file of the variable ends
 * there too (docs/decisions/0508-transfer-files-end-with-the-published-runs.md). Null when no
 * product shows the variable in frames.
 */
export function variableFramesEndMs(products: readonly ProductDef[], variable: VariableId, nowMs: number): number | null {
  let end: number | null = null;
  for (const p of products) {
    if (p.variable !== variable || !p.hasFrames || p.cadenceMinutes === 0) continue;
    const last = productTimeRange(p, nowMs).endMs;
    if (end === null || last > end) end = last;
  }
  return end;
}

/** A run's frames with valid time in [startMs, endMs], in `order`, at most `limit`. */
export function runFrames(
  p: ProductDef,
  run: ProductRun,
  startMs: number,
  endMs: number,
  limit: number,
  order: SortOrder = 'desc',
  ids: FrameIds = COMPUTED_FRAME_IDS,
): FrameRef[] {
  const range = runValidRange(p, run);
  if (!range) return [];
  const step = p.cadenceMinutes * MINUTE_MS;
  return cadenceTimes(range.startMs, step, Math.max(startMs, range.startMs), Math.min(endMs, range.endMs), limit, order).map((t) =>
    forecastFrame(p, run, t, ids),
  );
}

/** Hashes computed between yields to the event loop while the index grows. */
const CHUNK = 4096;
/** A product's first chunk downward; each next one is twice as large, up to CHUNK. */
const FIRST_CHUNK = 256;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A UUID's 128 bits as four 32-bit words. */
function wordsOfUuid(id: string): [number, number, number, number] | null {
  if (!isUuid(id)) return null;
  const hex = id.replace(/-/g, '');
  return [0, 8, 16, 24].map((i) => Number.parseInt(hex.slice(i, i + 8), 16) >>> 0) as [number, number, number, number];
}

/** The UUID written from four 32-bit words, byte by byte with its dashes (a list writes one per frame). */
function uuidOfWords(w: Uint32Array, at: number): string {
  const a = w[at]!;
  const b = w[at + 1]!;
  const c = w[at + 2]!;
  const d = w[at + 3]!;
  return (
    `${HEX[a >>> 24]}${HEX[(a >>> 16) & 0xff]}${HEX[(a >>> 8) & 0xff]}${HEX[a & 0xff]}-${HEX[b >>> 24]}${HEX[(b >>> 16) & 0xff]}-` +
    `${HEX[(b >>> 8) & 0xff]}${HEX[b & 0xff]}-${HEX[c >>> 24]}${HEX[(c >>> 16) & 0xff]}-` +
    `${HEX[(c >>> 8) & 0xff]}${HEX[c & 0xff]}${HEX[d >>> 24]}${HEX[(d >>> 16) & 0xff]}${HEX[(d >>> 8) & 0xff]}${HEX[d & 0xff]}`
  );
}

const frameIndexes = new WeakMap<readonly ProductDef[], FrameIndex>();

/**
 * The frame index of a catalog's products, one per process: the platform and tiles areas of an
 * embedded fleet find frames in the same one, built once.
 */
export function frameIndexOf(products: readonly ProductDef[]): FrameIndex {
  let index = frameIndexes.get(products);
  if (!index) frameIndexes.set(products, (index = new FrameIndex(products)));
  return index;
}

/** A slot of the table: (product index << 24 | frame number) + 1, 0 when free. */
const MAX_FRAMES_PER_PRODUCT = 1 << 24;

/**
 * The ids of the products' frames, held so a frame is found by id and a list's ids are read, not
 * hashed (docs/decisions/0120-product-frames-and-forecast-runs.md). Ids are SHA-1 based (UUID v5)
 * and cannot be inverted: every analysis frame's id (about 100,000 per hourly product over ten
 * years) is kept as four 32-bit words by product and frame number (16 bytes a frame), with an
 * open-addressed table from the id's first 64 bits to the frame, grown as hours add frames.
 * Forecast frames, a few hundred a run, are kept per run while the run lives.
 *
 * The index is built in chunks that yield to the event loop, newest frames first across the
 * products (docs/decisions/0321-frame-index-newest-first.md): each product holds one contiguous
 * range of frame numbers, grown up to the current hour and then down to its first frame. A
 * lookup by id answers as soon as the chunk holding its frame is in, so a frame of the last
 * months is found after a few chunks, not after the ten years; only an id that is no frame
 * waits for the whole index. A list asks for the index to be built and computes the ids it does
 * not hold yet.
 */
export class FrameIndex implements FrameIds {
  /** per product: the ids of frames lo..hi-1, four words each, at their frame number */
  private readonly words: Uint32Array[];
  /** per product: frames [lo, hi) of its cadence are indexed */
  private readonly lo: number[];
  private readonly hi: number[];
  private readonly origins: number[];
  private readonly steps: number[];
  private readonly slotOf = new Map<ProductDef, number>();
  private table = new Uint32Array(1 << 16);
  private size = 0;
  private readonly runs = new Map<string, { ids: string[]; byId: Map<string, number>; firstMs: number }>();
  /** the growth under way: whether it reached its hour (false when stopped) */
  private growing: Promise<boolean> | null = null;
  /** set by stop, cleared by start: the index grows only while a lookup waits for it */
  private stopped = false;
  /** lookups waiting for the next chunk while the index grows */
  private waiting: (() => void)[] = [];
  /** the forecast boundary up to which every product is indexed */
  private coveredBoundary = Number.NaN;

  constructor(private readonly products: readonly ProductDef[]) {
    if (products.length > 255) throw new RangeError('the frame index holds at most 255 products');
    this.words = products.map(() => new Uint32Array(0));
    this.lo = products.map(() => 0);
    this.hi = products.map(() => 0);
    this.origins = products.map((p) => Date.parse(p.startTime));
    this.steps = products.map((p) => p.cadenceMinutes * MINUTE_MS);
    products.forEach((p, i) => this.slotOf.set(p, i));
  }

  /**
   * The frame with this id at nowMs, if it is one of a product's frames or of a live run's. While
   * the index grows, found as soon as its chunk is in.
   */
  async find(id: string, nowMs: number): Promise<FrameRef | undefined> {
    const words = wordsOfUuid(id);
    if (!words) return undefined;
    const grown = this.grow(nowMs);
    // A lookup answered before the growth ends leaves it running; its failure is the next lookup's.
    grown.catch(() => undefined);
    const now = this.lookup(words, nowMs) ?? this.findForecastFrame(id.toLowerCase(), nowMs);
    if (now) return now;
    while (this.growing) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      const found = this.lookup(words, nowMs);
      if (found) return found;
    }
    // A growth stopped short (stop) does not say the id is no frame: the lookup grows it on.
    if (!(await grown)) return this.find(id, nowMs);
    return this.lookup(words, nowMs);
  }

  /**
   * Starts indexing up to nowMs in the background, if it is not done and the index is not
   * stopped: lists call it and go on. The promise says when it is done.
   */
  warm(nowMs: number): Promise<void> {
    return !this.stopped && forecastBoundaryMs(nowMs) !== this.coveredBoundary
      ? this.grow(nowMs).then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
  }

  /**
   * warm for a service as it starts, after a stop as well, and the ids of every live run's
   * forecast frames: a lookup of an id that is no analysis frame (a forecast frame, a synced
   * product's frame asked beside the index) computes them otherwise, a few hundred ms of CPU for
   * the catalog's runs, on its first request. One product's runs a turn of the event loop.
   */
  async start(nowMs: number): Promise<void> {
    this.stopped = false;
    const growing = this.warm(nowMs);
    for (const p of this.products) {
      for (const run of liveRuns(p, nowMs)) this.runIds(p, run);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await growing;
  }

  /** Live runs whose forecast frames' ids are held, for tests. */
  get runsHeld(): number {
    return this.runs.size;
  }

  /**
   * Stops the background growth after its current chunk, for a closing service: the index is a
   * cache of the process, and indexing ten years of frames in the background would hold a
   * process that is ending (a test worker, a pod in its grace period) for seconds. What is
   * indexed stays. From then on the index grows only while a lookup waits for a frame it does not
   * hold yet, and stops again once none waits; lists no longer grow it, a service's start does.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    // a lookup that waited for this growth to end starts the next, which ends after a chunk
    while (this.growing) await this.growing.catch(() => undefined);
  }

  /** An analysis frame's id: read when indexed, else computed. */
  analysis(p: ProductDef, validMs: number): string {
    const i = this.slotOf.get(p);
    if (i !== undefined) {
      const k = (validMs - this.origins[i]!) / this.steps[i]!;
      if (Number.isInteger(k) && k >= this.lo[i]! && k < this.hi[i]!) return uuidOfWords(this.words[i]!, 4 * k);
    }
    return frameId(p, validMs);
  }

  /** A forecast frame's id, from its run's ids (computed once a run). */
  forecast(p: ProductDef, run: ProductRun, validMs: number): string {
    const ids = this.runIds(p, run);
    const k = (validMs - ids.firstMs) / (p.cadenceMinutes * MINUTE_MS);
    return (Number.isInteger(k) ? ids.ids[k] : undefined) ?? forecastFrameId(p, run.initMs, validMs);
  }

  /** Frames indexed (analysis frames), for tests and benches. */
  get count(): number {
    return this.size;
  }

  private runIds(p: ProductDef, run: ProductRun) {
    let entry = this.runs.get(run.id);
    if (!entry) {
      const frames = runFrames(p, run, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 'asc');
      entry = {
        ids: frames.map((f) => f.id),
        byId: new Map(frames.map((f) => [f.id, f.validMs])),
        firstMs: frames[0]?.validMs ?? run.initMs,
      };
      this.runs.set(run.id, entry);
    }
    return entry;
  }

  private lookup([a, b, c, d]: [number, number, number, number], nowMs: number): FrameRef | undefined {
    const mask = this.table.length - 1;
    for (let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask; this.table[i] !== 0; i = (i + 1) & mask) {
      const ref = this.table[i]! - 1;
      const slot = ref >>> 24;
      const k = ref & (MAX_FRAMES_PER_PRODUCT - 1);
      const w = this.words[slot]!;
      if (w[4 * k] !== a || w[4 * k + 1] !== b || w[4 * k + 2] !== c || w[4 * k + 3] !== d) continue;
      const p = this.products[slot]!;
      const validMs = this.origins[slot]! + k * this.steps[slot]!;
      const end = analysisEndMs(p, nowMs, productTimeRange(p, nowMs).endMs);
      return end !== null && validMs <= end ? analysisFrame(p, validMs, this) : undefined;
    }
    return undefined;
  }

  private findForecastFrame(id: string, nowMs: number): FrameRef | undefined {
    const live = new Set<string>();
    for (const p of this.products) {
      for (const run of liveRuns(p, nowMs)) {
        live.add(run.id);
        const validMs = this.runIds(p, run).byId.get(id);
        if (validMs !== undefined) return forecastFrame(p, run, validMs, this);
      }
    }
    for (const runId of this.runs.keys()) if (!live.has(runId)) this.runs.delete(runId);
    return undefined;
  }

  /**
   * Indexes every analysis frame up to nowMs; one growth at a time, shared by concurrent callers.
   * Where analysis frames end moves only with the forecast boundary (the hour), so within an hour
   * already covered there is nothing to check.
   */
  private async grow(nowMs: number): Promise<boolean> {
    const boundary = forecastBoundaryMs(nowMs);
    if (boundary === this.coveredBoundary) return true;
    while (this.growing) await this.growing;
    if (this.products.some((p, i) => this.target(p, nowMs) > this.hi[i]! || this.lo[i]! > 0)) {
      this.growing = this.growTo(nowMs).finally(() => {
        this.growing = null;
        this.wake();
      });
      if (!(await this.growing)) return false;
    }
    this.coveredBoundary = boundary;
    return true;
  }

  /** Lets the lookups waiting for a chunk look again. */
  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** How many valid times of p are analysis frames at nowMs. */
  private target(p: ProductDef, nowMs: number): number {
    const end = analysisEndMs(p, nowMs, productTimeRange(p, nowMs).endMs);
    if (end === null) return 0;
    return Math.min(MAX_FRAMES_PER_PRODUCT, Math.floor((end - Date.parse(p.startTime)) / (p.cadenceMinutes * MINUTE_MS)) + 1);
  }

  /**
   * Chunk by chunk, newest frames first: each product's frames after its range (the hours since
   * it last grew), then, among the products, the one whose next older frame is the latest.
   * Answers whether it reached nowMs's hour (false: stopped).
   */
  private async growTo(nowMs: number): Promise<boolean> {
    const targets = this.products.map((p) => this.target(p, nowMs));
    targets.forEach((target, i) => {
      // A product never indexed starts its range at its newest frame.
      if (this.hi[i] === 0) this.lo[i] = this.hi[i] = target;
      if (this.words[i]!.length >= 4 * target) return;
      const grown = new Uint32Array(4 * Math.max(target, Math.ceil(this.hi[i]! * 1.5)));
      grown.set(this.words[i]!.subarray(0, 4 * this.hi[i]!));
      this.words[i] = grown;
    });
    for (let i = 0; i < this.products.length; i++) {
      while (this.hi[i]! < targets[i]!) {
        const from = this.hi[i]!;
        const to = Math.min(targets[i]!, from + CHUNK);
        this.indexFrames(i, from, to);
        this.hi[i] = to;
        if (!(await this.chunkDone())) return false;
      }
    }
    const chunks = this.products.map(() => 0);
    for (;;) {
      let next = -1;
      for (let i = 0; i < this.products.length; i++) {
        if (this.lo[i]! > 0 && (next < 0 || this.validMsOf(i, this.lo[i]! - 1) > this.validMsOf(next, this.lo[next]! - 1))) next = i;
      }
      if (next < 0) return true;
      const to = this.lo[next]!;
      // Small chunks first, doubling per product up to CHUNK: every product's latest weeks are in
      // after a few hundred hashes each, where lookups mostly land.
      const from = Math.max(0, to - Math.min(CHUNK, FIRST_CHUNK << Math.min(8, chunks[next]!++)));
      this.indexFrames(next, from, to);
      this.lo[next] = from;
      if (!(await this.chunkDone())) return false;
    }
  }

  private validMsOf(i: number, k: number): number {
    return this.origins[i]! + k * this.steps[i]!;
  }

  /** Hashes frames from..to-1 of product i into its words and the table. */
  private indexFrames(i: number, from: number, to: number): void {
    const prefix = `frame:${this.products[i]!.name}:`;
    const w = this.words[i]!;
    for (let k = from; k < to; k++) {
      if ((this.size + 1) * 2 > this.table.length) this.resize(this.table.length * 2);
      const digest = fieldcastIdBytes(prefix + isoInstant(this.validMsOf(i, k)));
      for (let j = 0; j < 4; j++) w[4 * k + j] = digest.readUInt32BE(4 * j);
      this.insert(w[4 * k]!, w[4 * k + 1]!, ((i << 24) | k) >>> 0);
    }
  }

  /**
   * Yields to the event loop after a chunk, and lets waiting lookups look again; false once the
   * index is stopped and no lookup waits (those not found wait again before the next turn).
   */
  private async chunkDone(): Promise<boolean> {
    this.wake();
    await new Promise<void>((resolve) => setImmediate(resolve));
    return !this.stopped || this.waiting.length > 0;
  }

  private insert(a: number, b: number, ref: number): void {
    const mask = this.table.length - 1;
    let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = ref + 1;
    this.size += 1;
  }

  private resize(capacity: number): void {
    const old = this.table;
    this.table = new Uint32Array(capacity);
    this.size = 0;
    for (const entry of old) {
      if (entry === 0) continue;
      const ref = entry - 1;
      const w = this.words[ref >>> 24]!;
      const k = ref & (MAX_FRAMES_PER_PRODUCT - 1);
      this.insert(w[4 * k]!, w[4 * k + 1]!, ref);
    }
  }
}

/** A product's runs published and not expired at nowMs, every one of them. */
const liveRuns = (p: ProductDef, nowMs: number) =>
  productRuns(p, nowMs, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
