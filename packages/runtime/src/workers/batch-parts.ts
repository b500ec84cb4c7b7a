/**
 * Entries of a batch a part may hold at least: below it a task's fixed cost (its message, the
 * block of cells it sets up) outweighs the share of the batch it takes off another thread.
 */
export const MIN_BATCH_PART = 100;

/**
 * A batch's entries computed as contiguous parts at once, one per idle compute thread, and their
 * results joined in the entries' order (docs/decisions/0358-batches-spread-over-idle-threads.md):
 * a batch of a thousand places takes the cores that are free, and where none is, it is one task
 * queued behind the others. `run` answers a part's results in its order.
 */
export async function inParts<E, R>(entries: readonly E[], idleThreads: number, run: (part: E[]) => Promise<R[]>): Promise<R[]> {
  const n = Math.max(1, Math.min(idleThreads, Math.floor(entries.length / MIN_BATCH_PART)));
  const bound = (i: number) => Math.floor((i * entries.length) / n);
  const parts = await Promise.all(Array.from({ length: n }, (_, i) => run(entries.slice(bound(i), bound(i + 1)))));
  const out: R[] = [];
  for (const part of parts) for (const result of part) out.push(result);
  return out;
}
