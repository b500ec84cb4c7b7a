import type { Knex } from 'knex';
import type { ProductGrantState } from '@fieldcast/schemas';
import type { GrantLookup } from './domain/access.js';

/**
 * The tiles area's copy of the platform area's grants of restricted products (table
 * `tiles.product_grants`), written only by the consumer of the platform's messages
 * (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
 */
export class ProductGrantCopy implements GrantLookup {
  constructor(private readonly knex: Knex) {}

  private get table() {
    return this.knex.withSchema('tiles').table('product_grants');
  }

  async isGranted(accountId: string, productId: string): Promise<boolean> {
    const row: unknown = await this.table.where({ account_id: accountId, product_id: productId }).first('product_id');
    return row !== undefined;
  }

  /** Takes a grant's state from a message; applying one twice, or an older one again before a newer one, ends the same. */
  async apply(state: ProductGrantState): Promise<void> {
    const key = { account_id: state.accountId, product_id: state.productId };
    if (state.granted) await this.table.insert(key).onConflict(['account_id', 'product_id']).ignore();
    else await this.table.where(key).delete();
  }
}
