/**
 * Daily temperature extremes of the 2 x 2 grid points around a point read, kept by time chunk:
 * the explicit, bounded, keyed cache of computed chunks that docs/decisions/0036-caches.md
 * allows where an endpoint target needs one (the degree days of a location over a year,
 * docs/architecture.md §6). A chunk is CHUNK_DAYS days aligned on multiples of CHUNK_DAYS since
 * 1970, keyed by its grid rows and columns and its index. Synthetic values are a function of
 * (cell, day) only, so a cached chunk equals a recomputed one and no request can see another's
 * state; entries are never handed out, only copied from. Least recently used chunks go first.
 */
import type { DailyExtremes } from '../grid-source.js';

/** Days per chunk: a year's request touches six or seven. */
export const CHUNK_DAYS = 64;

/** [day][4] maximum and minimum of the block's four grid points (row-major) for one chunk. */
type Chunk = DailyExtremes<Float32Array>;

export class PointExtremesCache {
  private readonly chunks = new Map<string, Chunk>();

  /** capacity: most chunks kept (each 2 KB) */
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.chunks.size;
  }

  /**
   * [day][4] extremes for days d0 .. d0+n-1 of the block at rows i, i + 1 and columns j0, j1,
   * from cached chunks; each run of missing chunks is computed by one `compute(firstDay, days)`.
   */
  read(i: number, j0: number, j1: number, d0: number, n: number, compute: (firstDay: number, days: number) => Chunk): Chunk {
    const k0 = Math.floor(d0 / CHUNK_DAYS),
      k1 = Math.floor((d0 + n - 1) / CHUNK_DAYS);
    const key = (k: number): string => `${i}:${j0}:${j1}:${k}`;
    const found: Chunk[] = [];
    for (let k = k0; k <= k1; k++) {
      const hit = this.chunks.get(key(k));
      if (hit) {
        // Map iteration follows insertion order: re-inserting marks the chunk most recently used.
        this.chunks.delete(key(k));
        this.chunks.set(key(k), hit);
        found.push(hit);
        continue;
      }
      let end = k;
      while (end < k1 && !this.chunks.has(key(end + 1))) end++;
      const run = compute(k * CHUNK_DAYS, (end - k + 1) * CHUNK_DAYS);
      for (let m = k; m <= end; m++) {
        const from = 4 * (m - k) * CHUNK_DAYS,
          to = from + 4 * CHUNK_DAYS;
        const chunk = { tmax: run.tmax.slice(from, to), tmin: run.tmin.slice(from, to) };
        this.keep(key(m), chunk);
        found.push(chunk);
      }
      k = end;
    }
    const tmax = new Float32Array(4 * n),
      tmin = new Float32Array(4 * n);
    found.forEach((chunk, idx) => {
      const k = k0 + idx;
      const from = Math.max(d0, k * CHUNK_DAYS),
        to = Math.min(d0 + n, (k + 1) * CHUNK_DAYS);
      const src = 4 * (from - k * CHUNK_DAYS),
        dst = 4 * (from - d0);
      tmax.set(chunk.tmax.subarray(src, src + 4 * (to - from)), dst);
      tmin.set(chunk.tmin.subarray(src, src + 4 * (to - from)), dst);
    });
    return { tmax, tmin };
  }

  private keep(key: string, chunk: Chunk): void {
    if (this.capacity <= 0) return;
    if (this.chunks.size >= this.capacity) this.chunks.delete(this.chunks.keys().next().value!);
    this.chunks.set(key, chunk);
  }
}
