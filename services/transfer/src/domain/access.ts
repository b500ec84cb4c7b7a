/**
 * Which accounts may see a data-transfer product (docs/decisions/0397-transfer-products-follow-product-grants.md):
 * a file holds its variables' values, so a variable the platform area restricts
 * (docs/decisions/0121-product-access.md) is downloadable only by the accounts granted it. The
 * restriction is the catalog's products', never the transfer product's own: a transfer product
 * over a restricted product's variable is restricted by that product, with nothing to forget to set.
 */
import { restrictingProducts as productsRestricting } from '@fieldcast/runtime';
import type { Catalog, TransferProductDef } from '@fieldcast/weather';

/**
 * Ids of the catalog's restricted products whose variable the transfer product carries (first or
 * additional): an account needs a grant of each to see it. None for a product every account sees.
 */
export function restrictingProducts(catalog: Catalog, def: Pick<TransferProductDef, 'variable' | 'additionalVariables'>): string[] {
  return productsRestricting(catalog, [def.variable, ...(def.additionalVariables ?? [])]);
}
