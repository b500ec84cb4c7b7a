import { severeEvents, type AnySevereEvent, type SevereKind } from '@fieldcast/weather/synthetic';
import { DAY_MS } from './dates.js';

/**
 * The synthetic world's severe-weather events, read in fixed blocks and kept in a bounded cache
 * (docs/decisions/0036-caches.md: an explicit, bounded, keyed cache of computed chunks where an
 * endpoint's target needs one; docs/decisions/0171-archive-event-blocks.md).
 *
 * A block is BLOCK_DEG x BLOCK_DEG degrees aligned on multiples of BLOCK_DEG from (-90, -180),
 * times BLOCK_DAYS event days aligned on multiples of BLOCK_DAYS since 1970, except in the two
 * polar rows, where one block spans every longitude: a small circle around a pole touches every
 * meridian, and its true extent is the polar cap, one block per period, not one per 8 degrees of
 * longitude (docs/decisions/0211-archive-polar-cap-blocks.md). It holds the events
 * whose position (a tornado's touchdown) lies in its box and whose time (touchdown) lies in its
 * days, computed by one read of the synthetic world over exactly that box and those days. Every
 * request reads the same blocks whatever its own extent, so an answer never depends on which
 * requests came before: the same request gives the same answer on every machine and restart.
 * Events are immutable and never handed out for change (records are built from them).
 *
 * A block is drawn by a DrawBlock: in a compute thread (blocks-compute.ts) or on the event loop
 * (inlineDrawer). Requests that need a block being drawn wait for that drawing instead of
 * starting another.
 */
export const BLOCK_DEG = 8;
export const BLOCK_DAYS = 16;
const HOUR_MS = 3_600_000;
/** The latitude band numbers of the polar caps, -90 to -82 and 86 to 90: one block spans every longitude there. */
const POLAR_ROWS = new Set([0, Math.floor((90 - 1e-6 + 90) / BLOCK_DEG)]);

/** A box in degrees, west <= east, no wrap. */
interface BlockBox {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** Each latitude band a box touches, with the range of longitude band numbers it touches in it. */
export function blockRows(box: BlockBox): { bi: number; bj0: number; bj1: number }[] {
  const bi0 = Math.floor((Math.max(-90, box.south) + 90) / BLOCK_DEG);
  const bi1 = Math.floor((Math.min(89.999999, box.north) + 90) / BLOCK_DEG);
  const bj0 = Math.floor((Math.max(-180, box.west) + 180) / BLOCK_DEG);
  const bj1 = Math.floor((Math.min(179.999999, box.east) + 180) / BLOCK_DEG);
  const rows: { bi: number; bj0: number; bj1: number }[] = [];
  for (let bi = bi0; bi <= bi1; bi++) rows.push(POLAR_ROWS.has(bi) ? { bi, bj0: 0, bj1: 0 } : { bi, bj0, bj1 });
  return rows;
}

/** The 16-day period numbers of event days firstDay..lastDay. */
export function blockPeriods(firstDay: number, lastDay: number): { bk0: number; bk1: number } {
  return { bk0: Math.floor(firstDay / BLOCK_DAYS), bk1: Math.floor(lastDay / BLOCK_DAYS) };
}

/** Which block: a kind, the latitude and longitude band numbers from (-90, -180), and the 16-day period since 1970. */
export interface BlockKey {
  kind: SevereKind;
  bi: number;
  bj: number;
  bk: number;
}

export interface Block {
  /** events of each event day of the block, in time order */
  days: AnySevereEvent[][];
  count: number;
}

/** Draws one block from the synthetic world (the same events wherever it runs). */
export type DrawBlock = (key: BlockKey) => Promise<Block>;

/** Event day number (days since 1970-01-01T06:00Z) of an instant. */
export function eventDayNumber(ms: number): number {
  return Math.floor((ms - 6 * HOUR_MS) / DAY_MS);
}

export interface BlockCacheLimits {
  /** most events kept across blocks */
  maxEvents: number;
  /** most blocks kept */
  maxBlocks: number;
}

/**
 * Blocks drawn on the event loop, one at a time, each after the loop has turned: a block takes
 * tens to hundreds of milliseconds, and other requests run between blocks. For a process without
 * compute threads (FIELDCAST_COMPUTE_THREADS=0).
 */
export function inlineDrawer(): DrawBlock {
  let previous: Promise<unknown> = Promise.resolve();
  return (key) => {
    const drawn = previous.then(() => new Promise((resolve) => setImmediate(resolve))).then(() => computeBlock(key));
    previous = drawn.catch(() => undefined);
    return drawn;
  };
}

const keyText = ({ kind, bi, bj, bk }: BlockKey) => `${kind}:${bi}:${bj}:${bk}`;

export class SevereEventBlocks {
  private readonly blocks = new Map<string, Block>();
  /** blocks being drawn, shared by every request that needs one */
  private readonly drawing = new Map<string, Promise<Block>>();
  private events = 0;

  constructor(
    private readonly limits: BlockCacheLimits = { maxEvents: 400_000, maxBlocks: 4_000 },
    private readonly draw: DrawBlock = inlineDrawer(),
  ) {}

  get size(): { blocks: number; events: number } {
    return { blocks: this.blocks.size, events: this.events };
  }

  /**
   * Events of `kind` whose position lies in [south, north] x [west, east] (degrees, west <= east,
   * no wrap) on event days firstDay..lastDay, block by block; the caller filters exactly.
   */
  async read(kind: SevereKind, box: BlockBox, firstDay: number, lastDay: number): Promise<AnySevereEvent[]> {
    const { bk0, bk1 } = blockPeriods(firstDay, lastDay);
    const rows = blockRows(box);
    const keys: BlockKey[] = [];
    for (let bk = bk0; bk <= bk1; bk++) {
      for (const { bi, bj0, bj1 } of rows) for (let bj = bj0; bj <= bj1; bj++) keys.push({ kind, bi, bj, bk });
    }
    // Every missing block is asked for at once, so compute threads draw them side by side.
    const blocks = await Promise.all(keys.map((key) => this.block(key)));
    const out: AnySevereEvent[] = [];
    keys.forEach(({ bk }, i) => {
      const d0 = Math.max(firstDay, bk * BLOCK_DAYS) - bk * BLOCK_DAYS;
      const d1 = Math.min(lastDay, bk * BLOCK_DAYS + BLOCK_DAYS - 1) - bk * BLOCK_DAYS;
      for (let d = d0; d <= d1; d++) for (const e of blocks[i]!.days[d]!) out.push(e);
    });
    return out;
  }

  private block(key: BlockKey): Block | Promise<Block> {
    const id = keyText(key);
    const hit = this.blocks.get(id);
    if (hit) {
      // Map order is insertion order: re-inserting marks the block most recently used.
      this.blocks.delete(id);
      this.blocks.set(id, hit);
      return hit;
    }
    let pending = this.drawing.get(id);
    if (!pending) {
      pending = this.draw(key).then(
        (block) => {
          this.drawing.delete(id);
          this.keep(id, block);
          return block;
        },
        (err: unknown) => {
          this.drawing.delete(id);
          throw err;
        },
      );
      this.drawing.set(id, pending);
    }
    return pending;
  }

  private keep(id: string, block: Block): void {
    this.blocks.set(id, block);
    this.events += block.count;
    for (const [oldId, old] of this.blocks) {
      if (this.events <= this.limits.maxEvents && this.blocks.size <= this.limits.maxBlocks) break;
      if (oldId === id) break;
      this.blocks.delete(oldId);
      this.events -= old.count;
    }
  }
}

/** One block, read from the synthetic world over exactly its box and days (docs/decisions/0024-severe-weather.md). */
export function computeBlock({ kind, bi, bj, bk }: BlockKey): Block {
  const south = -90 + bi * BLOCK_DEG;
  const polar = POLAR_ROWS.has(bi);
  const west = polar ? -180 : -180 + bj * BLOCK_DEG;
  const north = Math.min(90, south + BLOCK_DEG);
  const east = polar ? 180 : west + BLOCK_DEG;
  const firstDay = bk * BLOCK_DAYS;
  const startMs = firstDay * DAY_MS + 6 * HOUR_MS;
  const days: AnySevereEvent[][] = Array.from({ length: BLOCK_DAYS }, () => []);
  let count = 0;
  for (const e of severeEvents(kind, [west, south, east, north], { startMs, endMs: startMs + BLOCK_DAYS * DAY_MS - 1 })) {
    // The read includes events on the box's far edges and tornadoes that only cross it: each
    // event belongs to the one block holding its position and time.
    if (e.lat < south || e.lon < west || (e.lat >= north && north < 90) || (e.lon >= east && east < 180)) continue;
    const d = eventDayNumber(e.timeMs) - firstDay;
    if (d < 0 || d >= BLOCK_DAYS) continue;
    days[d]!.push(e);
    count += 1;
  }
  return { days, count };
}
