/**
 * The explicit, bounded caches of the tiles area (docs/architecture.md §6,
 * docs/decisions/0036-caches.md, docs/decisions/0133-tile-caches.md): entries keyed by everything
 * that decides them, least recently used first out once the entries' bytes pass the bound. An
 * entry is a function of its key, so every request would compute the same one. Concurrent
 * requests for one key share a single computation.
 */
export class BoundedCache<T extends { byteLength: number }> {
  private readonly entries = new Map<string, T>();
  private readonly pending = new Map<string, Promise<T>>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  async get(key: string, read: () => Promise<T>): Promise<T> {
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

  private store(key: string, values: T): void {
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

/** A tile's sampled values of one variable at one instant, keyed by source, variable, instant, tile and sampling mode. */
export class SampleCache extends BoundedCache<Float32Array> {}

/** Encoded tiles, keyed by their strong ETag (frame, run, style content, tile, renderer). */
export class PngCache extends BoundedCache<Buffer> {}
