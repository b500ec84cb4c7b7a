import { severeEvents, type AnySevereEvent, type SevereKind } from '@fieldcast/weather';
import { DAY_MS } from './dates.js';

/**
 * The synthetic world's severe-weather events, read in fixed blocks and kept in a bounded cache
 * (docs/decisions/0036-caches.md: an explicit, bounded, keyed cache of computed chunks where an
 * endpoint's target needs one; docs/decisions/0171-archive-event-blocks.md).
 *
 * A block is BLOCK_DEG x BLOCK_DEG degrees aligned on multiples of BLOCK_DEG from (-90, -180),
 * times BLOCK_DAYS event days aligned on multiples of BLOCK_DAYS since 1970. It holds the events
 * whose position (a tornado's touchdown) lies in its box and whose time (touchdown) lies in its
 * days, computed by one read of the synthetic world over exactly that box and those days. Every
 * request reads the same blocks whatever its own extent, so an answer never depends on which
 * requests came before: the same request gives the same answer on every machine and restart.
 * Events are immutable and never handed out for change (records are built from them).
 */
export const BLOCK_DEG = 8;
export const BLOCK_DAYS = 16;
const HOUR_MS = 3_600_000;

interface Block {
  /** events of each event day of the block, in time order */
  days: AnySevereEvent[][];
  count: number;
}

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

export class SevereEventBlocks {
  private readonly blocks = new Map<string, Block>();
  private events = 0;

  constructor(private readonly limits: BlockCacheLimits = { maxEvents: 400_000, maxBlocks: 4_000 }) {}

  get size(): { blocks: number; events: number } {
    return { blocks: this.blocks.size, events: this.events };
  }

  /**
   * Events of `kind` whose position lies in [south, north] x [west, east] (degrees, west <= east,
   * no wrap) on event days firstDay..lastDay, block by block; the caller filters exactly.
   */
  async read(
    kind: SevereKind,
    box: { south: number; north: number; west: number; east: number },
    firstDay: number,
    lastDay: number,
  ): Promise<AnySevereEvent[]> {
    const out: AnySevereEvent[] = [];
    const bi0 = Math.floor((Math.max(-90, box.south) + 90) / BLOCK_DEG);
    const bi1 = Math.floor((Math.min(89.999999, box.north) + 90) / BLOCK_DEG);
    const bj0 = Math.floor((Math.max(-180, box.west) + 180) / BLOCK_DEG);
    const bj1 = Math.floor((Math.min(179.999999, box.east) + 180) / BLOCK_DEG);
    const bk0 = Math.floor(firstDay / BLOCK_DAYS);
    const bk1 = Math.floor(lastDay / BLOCK_DAYS);
    for (let bk = bk0; bk <= bk1; bk++) {
      for (let bi = bi0; bi <= bi1; bi++) {
        for (let bj = bj0; bj <= bj1; bj++) {
          const cached = this.blocks.has(`${kind}:${bi}:${bj}:${bk}`);
          const block = this.block(kind, bi, bj, bk);
          // A block drawn afresh takes tens to hundreds of milliseconds: other requests run between blocks.
          if (!cached) await new Promise((resolve) => setImmediate(resolve));
          const d0 = Math.max(firstDay, bk * BLOCK_DAYS) - bk * BLOCK_DAYS;
          const d1 = Math.min(lastDay, bk * BLOCK_DAYS + BLOCK_DAYS - 1) - bk * BLOCK_DAYS;
          for (let d = d0; d <= d1; d++) for (const e of block.days[d]!) out.push(e);
        }
      }
    }
    return out;
  }

  private block(kind: SevereKind, bi: number, bj: number, bk: number): Block {
    const key = `${kind}:${bi}:${bj}:${bk}`;
    const hit = this.blocks.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the block most recently used.
      this.blocks.delete(key);
      this.blocks.set(key, hit);
      return hit;
    }
    const block = computeBlock(kind, bi, bj, bk);
    this.blocks.set(key, block);
    this.events += block.count;
    for (const [oldKey, old] of this.blocks) {
      if (this.events <= this.limits.maxEvents && this.blocks.size <= this.limits.maxBlocks) break;
      if (oldKey === key) break;
      this.blocks.delete(oldKey);
      this.events -= old.count;
    }
    return block;
  }
}

/** One block, read from the synthetic world over exactly its box and days (docs/decisions/0024-severe-weather.md). */
function computeBlock(kind: SevereKind, bi: number, bj: number, bk: number): Block {
  const south = -90 + bi * BLOCK_DEG;
  const west = -180 + bj * BLOCK_DEG;
  const north = Math.min(90, south + BLOCK_DEG);
  const east = west + BLOCK_DEG;
  const firstDay = bk * BLOCK_DAYS;
  const startMs = firstDay * DAY_MS + 6 * HOUR_MS;
  const days: AnySevereEvent[][] = Array.from({ length: BLOCK_DAYS }, () => []);
  let count = 0;
  for (const e of severeEvents(kind, [west, south, east, north], { startMs, endMs: startMs + BLOCK_DAYS * DAY_MS - 1 })) {
    // The read includes events on the box's far edges and tornadoes that only cross it: each
    // event belongs to the one block holding its position and time.
    if (e.lat < south || e.lon < west || (e.lat >= north && north < 90) || e.lon >= east) continue;
    const d = eventDayNumber(e.timeMs) - firstDay;
    if (d < 0 || d >= BLOCK_DAYS) continue;
    days[d]!.push(e);
    count += 1;
  }
  return { days, count };
}
