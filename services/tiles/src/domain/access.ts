/**
 * Which products an account may see in the tiles area (docs/interface.md §6;
 * docs/decisions/0121-product-access.md): every public one, and a restricted one once the platform
 * area has granted it (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
 */
import type { GrantLookup } from '@fieldcast/runtime';
import { grantedProductId, type ProductDef } from '@fieldcast/weather';

/**
 * Whether the account sees the product; a public product needs no lookup. A synced source's
 * product is seen with the grant of the catalog product it is made from
 * (docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
 */
export async function productVisible(
  grants: GrantLookup,
  accountId: string,
  product: Pick<ProductDef, 'id' | 'access' | 'grantedWith'>,
): Promise<boolean> {
  return product.access !== 'restricted' || grants.isGranted(accountId, grantedProductId(product));
}
