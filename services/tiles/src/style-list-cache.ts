/**
 * First pages of the style lists of (account, product), for a database only this process can
 * write: the embedded PGlite, whose data dir a pid file locks to one process
 * (docs/decisions/0008-embedded-runtime.md). Every write of a style goes through StyleStore in
 * this process, which drops the account's entries, so a cached page is never stale. With
 * PostgreSQL (several replicas) there is no cache: another replica's write would not reach it
 * (docs/decisions/0036-caches.md, docs/decisions/0133-tile-caches.md).
 *
 * A read that raced a write must not put the pre-write page back: `generation` counts writes, and
 * a page read from the database is cached only if no write began or ended while it was read.
 */
export interface StylePage {
  json: string;
  count: number;
  more: boolean;
  last: string | null;
}

export class StyleListCache {
  private readonly pages = new Map<string, StylePage>();
  private generation = 0;

  constructor(private readonly capacity = 10_000) {}

  private static key(accountId: string, productId: string, limit: number): string {
    return `${accountId}|${productId}|${limit}`;
  }

  get(accountId: string, productId: string, limit: number): StylePage | undefined {
    const key = StyleListCache.key(accountId, productId, limit);
    const page = this.pages.get(key);
    if (page) {
      // Most recently used last, so eviction drops the least recently used.
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  readStarted(): number {
    return this.generation;
  }

  fill(token: number, accountId: string, productId: string, limit: number, page: StylePage): void {
    if (token !== this.generation) return;
    this.pages.set(StyleListCache.key(accountId, productId, limit), page);
    for (const oldest of this.pages.keys()) {
      if (this.pages.size <= this.capacity) break;
      this.pages.delete(oldest);
    }
  }

  /** Drops every page of the account: called before and after each write of one of its styles. */
  invalidate(accountId: string): void {
    this.generation++;
    for (const key of [...this.pages.keys()]) if (key.startsWith(`${accountId}|`)) this.pages.delete(key);
  }
}
