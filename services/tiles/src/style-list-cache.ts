import { LruCache } from '@fieldcast/caches';

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
  private readonly pages: LruCache<StylePage>;
  private generation = 0;

  constructor(capacity = 10_000) {
    this.pages = new LruCache(capacity);
  }

  private static key(accountId: string, productId: string, limit: number): string {
    return `${accountId}|${productId}|${limit}`;
  }

  get(accountId: string, productId: string, limit: number): StylePage | undefined {
    return this.pages.get(StyleListCache.key(accountId, productId, limit));
  }

  readStarted(): number {
    return this.generation;
  }

  fill(token: number, accountId: string, productId: string, limit: number, page: StylePage): void {
    if (token !== this.generation) return;
    this.pages.set(StyleListCache.key(accountId, productId, limit), page);
  }

  /** Drops every page of the account: called before and after each write of one of its styles. */
  invalidate(accountId: string): void {
    this.generation++;
    for (const key of this.pages.keys()) if (key.startsWith(`${accountId}|`)) this.pages.delete(key);
  }
}
