import { productGrantsCopyMigration } from '@fieldcast/runtime';

/**
 * Which accounts the platform area has granted which restricted products: the model area's own
 * copy, filled from the platform's messages (docs/architecture.md §4; docs/decisions/0429-model-variables-follow-product-grants.md).
 */
export const productGrantsMigration = productGrantsCopyMigration('003_product_grants');
