/**
 * Which products an account may see in the tiles area (docs/interface.md §6;
 * docs/decisions/0121-product-access.md): every public one, and a restricted one once the platform
 * area has granted it (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
 */
import type { GrantLookup } from '@fieldcast/runtime';

/** Whether the account sees the product; a public product needs no lookup. */
export async function productVisible(
  grants: GrantLookup,
  accountId: string,
  product: { id: string; access?: string | undefined },
): Promise<boolean> {
  return product.access !== 'restricted' || grants.isGranted(accountId, product.id);
}
