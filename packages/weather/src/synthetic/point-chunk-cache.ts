/**
 * Values of the 2 x 2 grid points around a point read, kept by time chunk: the explicit, bounded,
 * keyed cache of computed chunks that docs/decisions/0036-caches.md allows where an endpoint
 * target needs one. A chunk is `chunkSteps` time steps aligned on multiples of `chunkSteps` since
 * 1970, keyed by its grid rows and columns and its index, and holds one [step][4] array per field.
 * Synthetic values are a function of (cell, step) only, so a cached chunk equals a recomputed one
 * and no request can see another's state; entries are never handed out, only copied from. Least
 * recently used chunks go first.
 */

/** One [step][4] array per field, the block's four grid points row-major. */
type PointFields<K extends string> = Record<K, Float32Array>;

export class PointChunkCache<K extends string> {
  private readonly chunks = new Map<string, PointFields<K>>();

  /**
   * fields: the names of the arrays a computation gives; chunkSteps: time steps per chunk;
   * capacity: most chunks kept (each 16 x chunkSteps bytes per field); 0 keeps none, and every
   * read is then computed for exactly its steps. minSteps: reads of fewer steps are computed for
   * exactly their steps and kept out, so reads of single instants at many places (a tile's
   * pixels) neither compute whole chunks nor push kept ones out.
   */
  constructor(
    readonly fields: readonly K[],
    readonly chunkSteps: number,
    readonly capacity: number,
    readonly minSteps = 0,
  ) {}

  get size(): number {
    return this.chunks.size;
  }

  /**
   * [step][4] fields for steps t0 .. t0+n-1 of the block at rows i, i + 1 and columns j0, j1,
   * from cached chunks; each run of missing chunks is computed by one `compute(firstStep, steps)`.
   */
  read(
    i: number,
    j0: number,
    j1: number,
    t0: number,
    n: number,
    compute: (firstStep: number, steps: number) => PointFields<K>,
  ): PointFields<K> {
    if (this.capacity <= 0 || n < this.minSteps) return compute(t0, n);
    const size = this.chunkSteps;
    const k0 = Math.floor(t0 / size),
      k1 = Math.floor((t0 + n - 1) / size);
    const key = (k: number): string => `${i}:${j0}:${j1}:${k}`;
    const found: PointFields<K>[] = [];
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
      const run = compute(k * size, (end - k + 1) * size);
      for (let m = k; m <= end; m++) {
        const from = 4 * (m - k) * size;
        const chunk = this.map((f) => run[f].slice(from, from + 4 * size));
        this.keep(key(m), chunk);
        found.push(chunk);
      }
      k = end;
    }
    const out = this.map(() => new Float32Array(4 * Math.max(0, n)));
    found.forEach((chunk, idx) => {
      const k = k0 + idx;
      const from = Math.max(t0, k * size),
        to = Math.min(t0 + n, (k + 1) * size);
      const src = 4 * (from - k * size),
        dst = 4 * (from - t0);
      for (const f of this.fields) out[f].set(chunk[f].subarray(src, src + 4 * (to - from)), dst);
    });
    return out;
  }

  private map(make: (field: K) => Float32Array): PointFields<K> {
    const out = {} as PointFields<K>;
    for (const f of this.fields) out[f] = make(f);
    return out;
  }

  private keep(key: string, chunk: PointFields<K>): void {
    if (this.chunks.size >= this.capacity) this.chunks.delete(this.chunks.keys().next().value!);
    this.chunks.set(key, chunk);
  }
}
