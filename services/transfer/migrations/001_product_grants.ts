import { productGrantsCopyMigration } from '@fieldcast/runtime';

/**
 * Which accounts the platform area has granted which restricted products: the transfer area's own
 * copy, filled from the platform's messages (docs/architecture.md §4; docs/decisions/0397-transfer-products-follow-product-grants.md).
 */
export const productGrantsMigration = productGrantsCopyMigration('001_product_grants');
