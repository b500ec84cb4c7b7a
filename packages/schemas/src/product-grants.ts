// The message by which the platform area tells other areas which accounts may see which restricted
// products (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
import { z } from 'zod';
import { Uuid } from './common.js';

/**
 * Where the platform publishes grant changes. Not of the form `fieldcast.<area>.<resource>`: a
 * grant is no resource of the feeds (docs/architecture.md §5), so the events service, which
 * consumes that pattern, never sees these messages.
 */
export const PRODUCT_GRANTS_TOPIC = 'fieldcast-state.platform.product-grants';

/**
 * The state of one account's access to one restricted product after a change (`data.resource`
 * of the CloudEvent, keyed by the grant's id): the latest message of a key is the truth, so a
 * reader applies them in order and a repeated message changes nothing.
 */
export const ProductGrantState = z.object({
  accountId: Uuid,
  productId: Uuid,
  granted: z.boolean(),
});
export type ProductGrantState = z.infer<typeof ProductGrantState>;
