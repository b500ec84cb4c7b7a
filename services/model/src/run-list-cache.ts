import { LruCache } from '@fieldcast/caches';

/**
 * The JSON text of run lists (GET /models/{id}/forecasts), each kept until the first instant its
 * answer could change: one explicit, bounded, keyed cache (docs/decisions/0036-caches.md,
 * docs/decisions/0143-model-series-cache.md). A list changes only when one of its runs changes
 * status, or at a whole UTC hour, when runs start and leave (domain/runs.ts), so the caller
 * gives that instant with the text.
 */
export class RunListCache {
  private readonly entries: LruCache<{ text: string; fromMs: number; untilMs: number }>;

  constructor(capacity = 256) {
    this.entries = new LruCache(capacity);
  }

  /** The text for `key` at nowMs: kept if computed for an interval holding nowMs, else computed. */
  get(key: string, nowMs: number, compute: () => { text: string; untilMs: number }): string {
    const hit = this.entries.get(key);
    if (hit && nowMs >= hit.fromMs && nowMs < hit.untilMs) return hit.text;
    const { text, untilMs } = compute();
    this.entries.set(key, { text, fromMs: nowMs, untilMs });
    return text;
  }
}
