/**
 * Pages of product frames already written, as UTF-8 JSON bytes, least recently used out once
 * their bytes pass the bound: one explicit, bounded, keyed cache (docs/decisions/0036-caches.md,
 * docs/decisions/0120-product-frames-and-forecast-runs.md). The key names everything a page
 * depends on (Platform.productFramesKey), so a kept page is the page a new computation would
 * write; a page over the bound is not kept.
 */
export class FramePageCache {
  private readonly pages = new Map<string, Buffer>();
  private bytes = 0;

  constructor(readonly maxBytes = 32 * 1024 * 1024) {}

  get heldBytes(): number {
    return this.bytes;
  }

  /** The kept page for `key`, or the page `write` gives, kept. */
  get(key: string, write: () => string): Buffer {
    const hit = this.pages.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the page most recently used.
      this.pages.delete(key);
      this.pages.set(key, hit);
      return hit;
    }
    const page = Buffer.from(write());
    if (page.byteLength > this.maxBytes) return page;
    this.pages.set(key, page);
    this.bytes += page.byteLength;
    for (const [oldest, old] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(oldest);
      this.bytes -= old.byteLength;
    }
    return page;
  }
}
