import { cloudEventProblem, type IncomingMessage } from '@fieldcast/bus';
import type { Logger } from '@fieldcast/kit';
import type { Consumer } from '@fieldcast/runtime';
import { PRODUCT_GRANTS_TOPIC, ProductGrantState } from '@fieldcast/schemas';
import type { ProductGrantCopy } from './product-grants.js';

/** One group for every replica: they share the tiles schema, so each message is applied once. */
const CONSUMER_GROUP = 'tiles';

const TOPIC = new RegExp(`^${PRODUCT_GRANTS_TOPIC.replaceAll('.', '\\.')}$`);

/** The grant state a message carries, or why it carries none. */
function grantStateOf(value: string): ProductGrantState | string {
  let event: unknown;
  try {
    event = JSON.parse(value);
  } catch {
    return 'not JSON';
  }
  const problem = cloudEventProblem(event);
  if (problem) return problem;
  const state = ProductGrantState.safeParse((event as { data: { resource?: unknown } }).data.resource);
  return state.success ? state.data : 'data.resource is not a grant state';
}

/**
 * Keeps the tiles area's copy of the platform's grants (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
 * A message that is no grant state is logged and passed over; a database failure throws, so the
 * message is delivered again.
 */
export function productGrantsConsumer(grants: ProductGrantCopy, logger: Logger): Consumer {
  return {
    group: CONSUMER_GROUP,
    topics: TOPIC,
    async handle(message: IncomingMessage) {
      const state = grantStateOf(message.value);
      if (typeof state === 'string') {
        logger.warn({ topic: message.topic, offset: message.offset, reason: state }, 'passed over a message that is no grant state');
        return;
      }
      await grants.apply(state);
    },
  };
}
