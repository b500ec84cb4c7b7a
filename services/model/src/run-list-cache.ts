/**
 * The JSON text of run lists (GET /models/{id}/forecasts), each kept until the first instant its
 * answer could change: one explicit, bounded, keyed cache (docs/decisions/0036-caches.md,
 * docs/decisions/0143-model-series-cache.md). A list changes only when one of its runs changes
 * status, or at a whole UTC hour, when runs start and leave (domain/runs.ts), so the caller
 * gives that instant with the text.
 */
export class RunListCache {
  private readonly entries = new Map<string, { text: string; fromMs: number; untilMs: number }>();

  constructor(readonly capacity = 256) {}

  /** The text for `key` at nowMs: kept if computed for an interval holding nowMs, else computed. */
  get(key: string, nowMs: number, compute: () => { text: string; untilMs: number }): string {
    const hit = this.entries.get(key);
    this.entries.delete(key);
    if (hit && nowMs >= hit.fromMs && nowMs < hit.untilMs) {
      this.entries.set(key, hit);
      return hit.text;
    }
    const { text, untilMs } = compute();
    this.entries.set(key, { text, fromMs: nowMs, untilMs });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return text;
  }
}
