/** A page of summaries, newest first, as stored JSON text; `more` when older sets remain. */
export interface SummaryPage {
  /** the summaries' JSON texts joined by commas, newest first */
  page: string;
  /** the id of the page's last (oldest) set, the cursor of the next page */
  lastId: string | null;
  more: boolean;
}

/**
 * List pages by account and request (docs/decisions/0154-observation-list-cache.md, after
 * 0036-caches.md). For a database only this process writes (the embedded PGlite, whose data dir
 * is locked to it) every publish goes through ObservationSetStore in this process and drops the
 * account's pages, and sets never change or go away, so a kept page is never stale. With
 * PostgreSQL (several replicas) the store puts the account's version into the request's key.
 *
 * A list that raced a publish must not put the pre-publish page back: `generation` counts
 * publishes, and a page read from the database is kept only if none ended while it was read.
 * Accounts are dropped least recently used first past the byte budget; an account keeps at most
 * PAGES_PER_ACCOUNT pages, its oldest out first.
 */
export class SummaryPageCache {
  private readonly accounts = new Map<string, Map<string, SummaryPage>>();
  private generation = 0;
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(accountId: string, key: string): SummaryPage | undefined {
    const pages = this.accounts.get(accountId);
    if (!pages) return undefined;
    // Map order is insertion order: moving the account to the end marks it most recently used.
    this.accounts.delete(accountId);
    this.accounts.set(accountId, pages);
    return pages.get(key);
  }

  /** A token to pass to `fill` after reading the database. */
  readStarted(): number {
    return this.generation;
  }

  /** Keeps a page read from the database, unless a publish ended since `token`. */
  fill(token: number, accountId: string, key: string, page: SummaryPage): void {
    const size = sizeOf(key, page);
    if (token !== this.generation || size > this.budgetBytes) return;
    let pages = this.accounts.get(accountId);
    if (!pages) this.accounts.set(accountId, (pages = new Map()));
    const old = pages.get(key);
    if (old) this.bytes -= sizeOf(key, old);
    pages.set(key, page);
    this.bytes += size;
    if (pages.size > PAGES_PER_ACCOUNT) {
      const [oldestKey, oldest] = pages.entries().next().value as [string, SummaryPage];
      pages.delete(oldestKey);
      this.bytes -= sizeOf(oldestKey, oldest);
    }
    for (const [id, held] of this.accounts) {
      if (this.bytes <= this.budgetBytes) break;
      this.drop(id, held);
    }
  }

  /** Called once a publish of the account has committed: drops its pages and keeps lists in flight out. */
  invalidate(accountId: string): void {
    this.generation++;
    const pages = this.accounts.get(accountId);
    if (pages) this.drop(accountId, pages);
  }

  /** characters held, for tests */
  get size(): number {
    return this.bytes;
  }

  private drop(accountId: string, pages: Map<string, SummaryPage>): void {
    for (const [key, page] of pages) this.bytes -= sizeOf(key, page);
    this.accounts.delete(accountId);
  }
}

/** Pages one account keeps: a client paging through a period or polling a few. */
const PAGES_PER_ACCOUNT = 64;

const sizeOf = (key: string, page: SummaryPage) => key.length + page.page.length + (page.lastId?.length ?? 0);
