import { LruCache } from './lru-cache.js';

/**
 * An LruCache filled by asynchronous loads. Concurrent requests for one key share a single
 * load; a loaded value is kept (weighed once it is there), a failed load is not, so the next
 * request tries again. For values that are a function of their key: every load of a key would
 * give the same value.
 */
export class LoadingCache<V> {
  private readonly kept: LruCache<V>;
  private readonly pending = new Map<string, Promise<V>>();

  constructor(maxWeight: number, weigh?: (value: V) => number) {
    this.kept = new LruCache(maxWeight, weigh);
  }

  /** values kept, not counting loads under way */
  get size(): number {
    return this.kept.size;
  }

  /** the weight of the values kept */
  get heldWeight(): number {
    return this.kept.heldWeight;
  }

  /** Lets every kept value go; loads under way still finish and are kept. */
  clear(): void {
    this.kept.clear();
  }

  /** The value kept under `key`, the load under way for it, or a new load by `load`. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.kept.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const loading = load().then(
      (value) => {
        this.pending.delete(key);
        return this.kept.set(key, value);
      },
      (err: unknown) => {
        this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, loading);
    return loading;
  }
}
