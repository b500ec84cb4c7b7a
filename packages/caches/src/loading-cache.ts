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

  /**
   * The values of many keys, in their order: those kept or under way as `get` gives them, and all
   * the others loaded by one call of `loadMissing` with their indexes in `keys` (each missing key
   * once, in order of first appearance), which answers their values in that order. For values
   * computed more cheaply together than one by one (a batch of points in one compute task).
   */
  getMany(keys: readonly string[], loadMissing: (indexes: number[]) => Promise<V[]>): Promise<V[]> {
    const missing: number[] = [];
    const waiting: { resolve(value: V): void; reject(err: unknown): void }[] = [];
    const values = keys.map((key, i) =>
      this.get(
        key,
        () =>
          new Promise<V>((resolve, reject) => {
            missing.push(i);
            waiting.push({ resolve, reject });
          }),
      ),
    );
    if (missing.length > 0) {
      loadMissing(missing).then(
        (loaded) =>
          waiting.forEach((w, k) =>
            k < loaded.length ? w.resolve(loaded[k]!) : w.reject(new Error('loadMissing answered too few values')),
          ),
        (err: unknown) => waiting.forEach((w) => w.reject(err)),
      );
    }
    return Promise.all(values);
  }
}
