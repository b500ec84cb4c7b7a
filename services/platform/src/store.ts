import type { Knex } from 'knex';
import type { OutboxWriter } from '@fieldcast/db';
import { productGrantEvent } from '@fieldcast/runtime';
import { PRODUCT_GRANTS_TOPIC } from '@fieldcast/schemas';

export const AREA = 'platform';
/** Topics of the tile-building application's events (docs/architecture.md §5). */
export const FRAMES_TOPIC = 'fieldcast.platform.frames';
export const FORECASTS_TOPIC = 'fieldcast.platform.forecasts';

/** How long an account's grants are remembered (docs/decisions/0036-caches.md: explicit, bounded, keyed). */
const GRANTS_TTL_MS = 5_000;
const GRANTS_CACHE_MAX = 10_000;

/** One cache per database, so a grant or revocation made in this process is seen at once by its services. */
const caches = new WeakMap<Knex, Map<string, { ids: ReadonlySet<string>; expires: number }>>();

/**
 * Grants of restricted products to accounts (docs/decisions/0121-product-access.md), in the
 * platform schema; nothing else touches the table. Written by `fieldcast products grant` and
 * `revoke`, read on every request that names or lists products, so an account's set is kept for
 * a few seconds: a change made by the CLI in another process is seen within GRANTS_TTL_MS.
 * Every change publishes the grant's new state through the outbox, for the areas that serve
 * products' data (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
 */
export class ProductGrants {
  private readonly cache: Map<string, { ids: ReadonlySet<string>; expires: number }>;

  constructor(
    private readonly knex: Knex,
    private readonly outbox: OutboxWriter,
  ) {
    let cache = caches.get(knex);
    if (!cache) caches.set(knex, (cache = new Map()));
    this.cache = cache;
  }

  private get table() {
    return this.knex.withSchema(AREA).table('product_grants');
  }

  /** Ids of the restricted products granted to the account. */
  async granted(accountId: string): Promise<ReadonlySet<string>> {
    const now = Date.now();
    const hit = this.cache.get(accountId);
    if (hit && hit.expires > now) return hit.ids;
    const rows: { product_id: string }[] = await this.table.where({ account_id: accountId }).select('product_id');
    const ids = new Set(rows.map((r) => r.product_id));
    if (this.cache.size >= GRANTS_CACHE_MAX) this.cache.clear();
    this.cache.set(accountId, { ids, expires: now + GRANTS_TTL_MS });
    return ids;
  }

  /** Grants a product; true when it was not granted before (only then is the change published). */
  async grant(accountId: string, product: { id: string; name: string }): Promise<boolean> {
    const added = await this.knex.transaction(async (trx) => {
      const rows = await trx
        .withSchema(AREA)
        .table('product_grants')
        .insert({ account_id: accountId, product_id: product.id, product_name: product.name })
        .onConflict(['account_id', 'product_id'])
        .ignore()
        .returning('product_id');
      if (rows.length > 0)
        await this.outbox.add(trx, PRODUCT_GRANTS_TOPIC, productGrantEvent({ accountId, productId: product.id, granted: true }));
      return rows.length > 0;
    });
    this.cache.delete(accountId);
    return added;
  }

  /** Revokes a grant; true when there was one (only then is the change published). */
  async revoke(accountId: string, productId: string): Promise<boolean> {
    const removed = await this.knex.transaction(async (trx) => {
      const rows = await trx
        .withSchema(AREA)
        .table('product_grants')
        .where({ account_id: accountId, product_id: productId })
        .delete()
        .returning('product_id');
      if (rows.length > 0) await this.outbox.add(trx, PRODUCT_GRANTS_TOPIC, productGrantEvent({ accountId, productId, granted: false }));
      return rows.length > 0;
    });
    this.cache.delete(accountId);
    return removed;
  }

  /**
   * Publishes every grant's state again, so a reader that starts late, or reads a topic whose
   * older messages the broker has dropped, still learns every grant
   * (docs/decisions/0134-product-grants-published-to-the-tiles-area.md). Returns how many.
   */
  async republish(): Promise<number> {
    return this.knex.transaction(async (trx) => {
      // SHARE conflicts with the row locks of grant and revoke: changes under way commit (and
      // queue their messages) before this reads, and later ones wait until its messages are
      // queued, so no message of this pass follows a newer state of its grant.
      await trx.raw('lock table ??.product_grants in share mode', [AREA]);
      const rows: { account_id: string; product_id: string }[] = await trx
        .withSchema(AREA)
        .table('product_grants')
        .orderBy(['account_id', 'product_id'])
        .select('account_id', 'product_id');
      for (const row of rows) {
        await this.outbox.add(
          trx,
          PRODUCT_GRANTS_TOPIC,
          productGrantEvent({ accountId: row.account_id, productId: row.product_id, granted: true }),
        );
      }
      return rows.length;
    });
  }

  /** Names of the products granted to the account, by name. */
  async list(accountId: string): Promise<string[]> {
    const rows: { product_name: string }[] = await this.table
      .where({ account_id: accountId })
      .orderBy('product_name')
      .select('product_name');
    return rows.map((r) => r.product_name);
  }
}

export interface Announced {
  framesThroughMs: number | null;
  runsThroughMs: number | null;
  checkedAtMs: number | null;
}

/** How far the tile-building application has announced each product (docs/decisions/0122-frame-and-run-events.md). */
export class Announcements {
  constructor(private readonly knex: Knex) {}

  /** The product's row, locked until the transaction ends; created empty when missing. */
  async lock(trx: Knex.Transaction, productId: string): Promise<Announced> {
    await trx.withSchema(AREA).table('announcements').insert({ product_id: productId }).onConflict('product_id').ignore();
    const row = await trx
      .withSchema(AREA)
      .table('announcements')
      .where({ product_id: productId })
      .forUpdate()
      .first('frames_through', 'runs_through', 'checked_at');
    const ms = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).getTime());
    return { framesThroughMs: ms(row?.frames_through), runsThroughMs: ms(row?.runs_through), checkedAtMs: ms(row?.checked_at) };
  }

  async save(trx: Knex.Transaction, productId: string, announced: Announced): Promise<void> {
    await trx
      .withSchema(AREA)
      .table('announcements')
      .where({ product_id: productId })
      .update({
        frames_through: announced.framesThroughMs === null ? null : new Date(announced.framesThroughMs),
        runs_through: announced.runsThroughMs === null ? null : new Date(announced.runsThroughMs),
        checked_at: announced.checkedAtMs === null ? null : new Date(announced.checkedAtMs),
      });
  }

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(fn);
  }
}
