/**
 * Which of a model's variables an account is served (docs/decisions/0429-model-variables-follow-product-grants.md):
 * a series holds its variable's values, so a variable the platform area restricts
 * (docs/decisions/0121-product-access.md) is served only to the accounts granted each restricted
 * product over it, as a transfer product over it is
 * (docs/decisions/0397-transfer-products-follow-product-grants.md).
 */
import { grantedAll, type GrantLookup, restrictingProducts } from '@fieldcast/runtime';
import type { Catalog, ModelVariable } from '@fieldcast/weather';

/** The variables, in their order, that the account may be served; no lookup when none is restricted. */
export async function servedVariables(
  catalog: Catalog,
  grants: GrantLookup,
  accountId: string,
  variables: readonly ModelVariable[],
): Promise<ModelVariable[]> {
  const served: ModelVariable[] = [];
  for (const v of variables) if (await grantedAll(grants, accountId, restrictingProducts(catalog, [v.variable]))) served.push(v);
  return served;
}
