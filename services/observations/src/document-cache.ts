import { LruCache } from '@fieldcast/caches';

/**
 * Recently read documents (their gzip, or their text), by set id, least recently used out past a
 * byte budget. Sets are immutable and never deleted (docs/interface.md §8 has no operation that
 * changes one), so an entry can never be stale, on one process or many
 * (docs/decisions/0153-observation-document-cache.md). The owner is kept with the bytes: a hit
 * for another account is still a miss to the caller.
 */
export type DocumentCache = LruCache<{ accountId: string; bytes: Buffer }>;

export function documentCache(budgetBytes: number): DocumentCache {
  return new LruCache(budgetBytes, (entry) => entry.bytes.byteLength);
}
