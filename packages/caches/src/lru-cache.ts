/**
 * The one bounded cache of the fleet (docs/decisions/0036-caches.md): values by key, least
 * recently used out once the weight of the values kept passes the bound. The weight is what the
 * bound counts: 1 a value by default (a bound on entries), or its bytes or characters.
 *
 * A Map iterates in insertion order, so deleting and re-inserting a key marks it most recently
 * used and the first key is always the least recently used.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private held = 0;

  constructor(
    readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  /** values kept */
  get size(): number {
    return this.entries.size;
  }

  /** the weight of the values kept, at most maxWeight */
  get heldWeight(): number {
    return this.held;
  }

  /** The value kept under `key`, now the most recently used, or undefined. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * Keeps `value` under `key` in place of any value there, unless it alone weighs more than the
   * bound (then nothing is kept under `key`), and lets the least recently used go past the bound.
   */
  set(key: string, value: V): V {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return value;
    this.entries.set(key, { value, weight });
    this.held += weight;
    for (const oldest of this.entries.keys()) {
      if (this.held <= this.maxWeight) break;
      this.delete(oldest);
    }
    return value;
  }

  /** The value kept under `key`, or the value `make` gives, kept. */
  getOrSet(key: string, make: () => V): V {
    return this.get(key) ?? this.set(key, make());
  }

  /** The keys kept, least recently used first; deleting while iterating is safe (a Map's iterator). */
  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.held -= entry.weight;
    return true;
  }
}
