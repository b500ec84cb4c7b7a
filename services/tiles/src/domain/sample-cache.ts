/**
 * The explicit, bounded cache of grid reads for tiles (docs/architecture.md §6,
 * docs/decisions/0036-caches.md): a tile's sampled values of one variable at one instant, keyed by
 * source, variable, instant, tile and sampling mode, least recently used first out once the
 * entries' bytes pass the bound. The values are a function of their key, so every request would
 * compute the same ones. Concurrent requests for one key share a single read.
 */
export class SampleCache {
  private readonly entries = new Map<string, Float32Array>();
  private readonly pending = new Map<string, Promise<Float32Array>>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  async get(key: string, read: () => Promise<Float32Array>): Promise<Float32Array> {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const reading = read().then(
      (values) => {
        this.pending.delete(key);
        this.store(key, values);
        return values;
      },
      (err: unknown) => {
        this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, reading);
    return reading;
  }

  private store(key: string, values: Float32Array): void {
    if (values.byteLength > this.maxBytes) return;
    this.entries.set(key, values);
    this.bytes += values.byteLength;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.byteLength;
    }
  }
}
