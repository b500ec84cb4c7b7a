import { productGrantsCopyMigration } from '@fieldcast/runtime';

/**
 * Which accounts the platform area has granted which restricted products: the tiles area's own
 * copy, filled from the platform's messages (docs/architecture.md §4; docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
 */
export const productGrantsMigration = productGrantsCopyMigration('002_product_grants');
