import type { Knex } from 'knex';
import { OwnedResourceStore, type Outbox, type OwnedResourceTable, type Precondition } from '@fieldcast/db';
import { topicFor } from '@fieldcast/bus';
import { nameKey } from '@fieldcast/schemas';
import { nameTaken, styleJson, type StyleRecord, styleView } from './domain/styles.js';
import { StyleListCache, type StylePage } from './style-list-cache.js';

export const AREA = 'tiles';
export const STYLES_TOPIC = topicFor(AREA, 'styles');
const STYLE_NAMESPACE = 'tiles/styles';
const PRODUCT_NAMESPACE = 'platform/products';

interface StyleRow {
  id: string;
  account_id: string;
  product_id: string;
  name: string;
  description: string;
  layer_name: string;
  colorizers: StyleRecord['colorizers'] | string;
}

const COLUMNS = ['id', 'account_id', 'product_id', 'name', 'description', 'layer_name', 'colorizers'] as const;

/** A stored row as the record it holds (its `view` is derived from the rest). */
function styleFromRow(raw: Record<string, unknown>): StyleRecord {
  const row = raw as unknown as StyleRow;
  return {
    id: row.id,
    accountId: row.account_id,
    productId: row.product_id,
    name: row.name,
    description: row.description,
    layerName: row.layer_name,
    colorizers: typeof row.colorizers === 'string' ? JSON.parse(row.colorizers) : row.colorizers,
  };
}

const STYLES: OwnedResourceTable<StyleRecord> = {
  area: AREA,
  table: 'styles',
  kind: 'style',
  topic: STYLES_TOPIC,
  columns: COLUMNS,
  fromRow: styleFromRow,
  toRow(record) {
    return {
      id: record.id,
      account_id: record.accountId,
      product_id: record.productId,
      name: record.name,
      name_key: nameKey(record.name),
      description: record.description,
      layer_name: record.layerName,
      colorizers: JSON.stringify(record.colorizers),
      view: styleJson(record),
    };
  },
  snapshot: styleView,
  related: (record) => [
    { namespace: STYLE_NAMESPACE, id: record.id },
    { namespace: PRODUCT_NAMESPACE, id: record.productId },
  ],
};

/** PostgreSQL's unique_violation (Appendix A, SQLSTATE 23505), from node-postgres and PGlite alike. */
function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * Contributed styles, owned by accounts (docs/interface.md §4). Names are unique among all
 * accounts' styles, case-insensitively: the unique index on name_key decides, so two accounts
 * creating one name at once cannot both win, and the loser hears 409 without learning whose it is.
 */
export class StyleStore extends OwnedResourceStore<StyleRecord> {
  /** first pages of lists, only where this process is the database's one writer (embedded PGlite) */
  private readonly lists: StyleListCache | null;

  constructor(
    private readonly db: Knex,
    outbox: Outbox,
    now: () => Date,
    options: { soleWriter?: boolean } = {},
  ) {
    super(db, outbox, now, STYLES);
    this.lists = options.soleWriter ? new StyleListCache() : null;
  }

  /**
   * Runs a write of one of the account's styles with the account's cached lists dropped before it
   * starts and after it ends; a clash on the unique name index is the name rule's 409.
   */
  private async writingStyle<T>(accountId: string, name: string | null, write: () => Promise<T>): Promise<T> {
    this.lists?.invalidate(accountId);
    try {
      return await write();
    } catch (err) {
      if (name !== null && isUniqueViolation(err)) throw nameTaken(name);
      throw err;
    } finally {
      this.lists?.invalidate(accountId);
    }
  }

  override create(record: StyleRecord, maxPerAccount?: number): Promise<StyleRecord | null> {
    return this.writingStyle(record.accountId, record.name, () => super.create(record, maxPerAccount));
  }

  override replace(record: StyleRecord, precondition?: Precondition<StyleRecord>): Promise<StyleRecord | null> {
    return this.writingStyle(record.accountId, record.name, () => super.replace(record, precondition));
  }

  override remove(accountId: string, id: string, precondition?: Precondition<StyleRecord>): Promise<StyleRecord | null> {
    return this.writingStyle(accountId, null, () => super.remove(accountId, id, precondition));
  }

  /**
   * The account's styles of one product, oldest first, as the JSON text of their records joined
   * by commas (built by the database in one row: docs/decisions/0133-tile-caches.md; each the text
   * kept when it was written, as every other answer gives it: 0417-one-representation-of-a-style.md), at most
   * `limit` after the style `after`; whether more remain and the last one's id. Null when `after`
   * is none of the account's styles of the product.
   */
  async listForProduct(accountId: string, productId: string, page: { limit: number; after?: string }): Promise<StylePage | null> {
    const cached = page.after === undefined ? this.lists?.get(accountId, productId, page.limit) : undefined;
    if (cached) return cached;
    const token = this.lists?.readStarted() ?? 0;
    // The cursor is a style of this account and this product, as the existence check below asks: one of another product is unknown.
    const cursor =
      page.after === undefined
        ? ''
        : 'and (created_at, id) > (select created_at, id from tiles.styles where id = ? and account_id = ? and product_id = ?)';
    const result = await this.db.raw(
      `with page as (
         select id,
                view,
                row_number() over (order by created_at, id) as n
         from tiles.styles
         where account_id = ? and product_id = ? ${cursor}
         order by created_at, id
         limit ?)
       select coalesce(string_agg(view, ',' order by n) filter (where n <= ?), '') as json,
              count(*)::int as rows,
              (array_agg(id::text order by n desc) filter (where n <= ?))[1] as last
       from page`,
      [
        accountId,
        productId,
        ...(page.after === undefined ? [] : [page.after, accountId, productId]),
        page.limit + 1,
        page.limit,
        page.limit,
      ],
    );
    const row = (result.rows as { json: string; rows: number; last: string | null }[])[0]!;
    if (row.rows === 0 && page.after !== undefined) {
      const known = await this.db
        .withSchema(AREA)
        .table('styles')
        .select('id')
        .where({ id: page.after, account_id: accountId, product_id: productId })
        .first();
      if (!known) return null;
    }
    const found = { json: row.json, count: Math.min(row.rows, page.limit), more: row.rows > page.limit, last: row.last };
    if (page.after === undefined) this.lists?.fill(token, accountId, productId, page.limit, found);
    return found;
  }

  /** The account's style of this name (any case); null when it has none. */
  async byName(accountId: string, name: string): Promise<StyleRecord | null> {
    const row: Record<string, unknown> | undefined = await this.db
      .withSchema(AREA)
      .table('styles')
      .select([...COLUMNS])
      .where({ name_key: nameKey(name), account_id: accountId })
      .first();
    return row ? styleFromRow(row) : null;
  }
}
