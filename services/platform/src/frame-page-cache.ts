import { LruCache } from '@fieldcast/caches';

/**
 * Pages of product frames already written, as UTF-8 JSON bytes, least recently used out once
 * their bytes pass the bound: one explicit, bounded, keyed cache (docs/decisions/0036-caches.md,
 * docs/decisions/0120-product-frames-and-forecast-runs.md). The key names everything a page
 * depends on (Platform.productFramesKey), so a kept page is the page a new computation would
 * write; a page over the bound is not kept.
 */
export class FramePageCache {
  private readonly pages: LruCache<Buffer>;

  constructor(maxBytes = 32 * 1024 * 1024) {
    this.pages = new LruCache(maxBytes, (page) => page.byteLength);
  }

  get heldBytes(): number {
    return this.pages.heldWeight;
  }

  /** The kept page for `key`, if any: a kept page is answered without listing its frames. */
  peek(key: string): Buffer | undefined {
    return this.pages.get(key);
  }

  /** The kept page for `key`, or the page `write` gives, kept. */
  get(key: string, write: () => string): Buffer {
    return this.pages.getOrSet(key, () => Buffer.from(write()));
  }
}
