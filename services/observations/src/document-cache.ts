/**
 * Recently read documents (their gzip, or their text), by set id, least recently used out past a
 * byte budget. Sets are
 * immutable and never deleted (docs/interface.md §8 has no operation that changes one), so an
 * entry can never be stale, on one process or many (docs/decisions/0153-observation-document-cache.md).
 * The owner is kept with the bytes: a hit for another account is still a miss to the caller.
 */
export class DocumentCache {
  private readonly entries = new Map<string, { accountId: string; bytes: Buffer }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(id: string): { accountId: string; bytes: Buffer } | undefined {
    const entry = this.entries.get(id);
    if (entry) {
      // Map order is insertion order: moving the entry to the end marks it most recently used.
      this.entries.delete(id);
      this.entries.set(id, entry);
    }
    return entry;
  }

  set(id: string, accountId: string, bytes: Buffer): void {
    if (bytes.byteLength > this.budgetBytes || this.entries.has(id)) return;
    this.entries.set(id, { accountId, bytes });
    this.bytes += bytes.byteLength;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes.byteLength;
    }
  }

  /** bytes held, for tests */
  get size(): number {
    return this.bytes;
  }
}
