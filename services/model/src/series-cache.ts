/**
 * Point time series of runs already computed, as the JSON text of their per-variable object
 * (spec 2.8), least recently used out: one explicit, bounded, keyed cache
 * (docs/decisions/0036-caches.md, docs/decisions/0143-model-series-cache.md).
 *
 * A run's values at a point are fixed: the run and its error are derived from the clock and the
 * catalog, and the weather a process reads does not change while it runs. The key names
 * everything the answer depends on: the run, the variable, the point and the valid times
 * selected (the first and how many, on the run's fixed step), so a run still being produced
 * gets a new entry as its valid times grow.
 */
export class SeriesCache {
  private readonly entries = new Map<string, Promise<string>>();

  constructor(readonly capacity = 1_000) {}

  static key(runId: string, variable: string, latitude: number, longitude: number, validMs: readonly number[]): string {
    return `${runId}|${variable}|${latitude}|${longitude}|${validMs[0] ?? ''}|${validMs.length}`;
  }

  /** The cached text, or the text `compute` gives, kept unless computing fails. */
  get(key: string, compute: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
