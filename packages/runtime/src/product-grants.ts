/**
 * An area's copy of the platform area's grants of restricted products (docs/architecture.md §4,
 * each area owns its data): the table `<area>.product_grants`, written only by the consumer of the
 * platform's grant-state messages, read by the area to tell which accounts see a restricted
 * product (docs/decisions/0134-product-grants-published-to-the-tiles-area.md; the transfer area,
 * docs/decisions/0397-transfer-products-follow-product-grants.md).
 */
import type { Knex } from 'knex';
import { type IncomingMessage, parseCloudEvent, type ResourceEventInput } from '@fieldcast/bus';
import type { Migration } from '@fieldcast/db';
import { fieldcastId } from '@fieldcast/ids';
import type { Logger } from '@fieldcast/kit';
import { PRODUCT_GRANTS_TOPIC, ProductGrantState } from '@fieldcast/schemas';
import type { Catalog, VariableId } from '@fieldcast/weather';
import type { Consumer } from './needs.js';

/**
 * The message of a grant's state as the platform area publishes it: its subject, and so its key,
 * is the grant, so one pair's changes stay in order on one partition.
 */
export function productGrantEvent(state: ProductGrantState): ResourceEventInput<ProductGrantState> {
  return {
    area: 'platform',
    resource: 'product-grant',
    action: state.granted ? 'granted' : 'revoked',
    subject: fieldcastId('product-grant', state.accountId, state.productId),
    data: { account: state.accountId, resource: state },
  };
}

/** Whether the account holds a grant of the restricted product. */
export interface GrantLookup {
  isGranted(accountId: string, productId: string): Promise<boolean>;
}

/**
 * Ids of the catalog's restricted products over any of the variables: what an area serves of a
 * variable is that variable's values, so an account needs a grant of each of them to be served it
 * (docs/decisions/0397-transfer-products-follow-product-grants.md). None when no variable is
 * restricted.
 */
export function restrictingProducts(catalog: Catalog, variables: Iterable<VariableId>): string[] {
  const wanted = new Set(variables);
  return catalog
    .products()
    .filter((p) => p.access === 'restricted' && p.variable !== null && wanted.has(p.variable))
    .map((p) => p.id);
}

/** Whether the account holds every grant of the products; none needs no lookup. */
export async function grantedAll(grants: GrantLookup, accountId: string, productIds: readonly string[]): Promise<boolean> {
  for (const id of productIds) if (!(await grants.isGranted(accountId, id))) return false;
  return true;
}

/** The migration that makes an area's copy: a row is a grant; a revocation deletes it. */
export function productGrantsCopyMigration(name: string): Migration {
  return {
    name,
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('product_grants', (t) => {
        t.uuid('account_id').notNullable();
        t.uuid('product_id').notNullable();
        t.primary(['account_id', 'product_id']);
      });
    },
  };
}

export class ProductGrantCopy implements GrantLookup {
  constructor(
    private readonly knex: Knex,
    /** the area's schema, where productGrantsCopyMigration made the table */
    private readonly schema: string,
  ) {}

  private get table() {
    return this.knex.withSchema(this.schema).table('product_grants');
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

const TOPIC = new RegExp(`^${PRODUCT_GRANTS_TOPIC.replaceAll('.', '\\.')}$`);

/** The grant state a message carries, or why it carries none. */
function grantStateOf(value: string): ProductGrantState | string {
  const event = parseCloudEvent(value);
  if (typeof event === 'string') return event;
  const state = ProductGrantState.safeParse(event.data.resource);
  return state.success ? state.data : 'data.resource is not a grant state';
}

/**
 * Keeps an area's copy of the platform's grants, in one consumer group for every replica of the
 * area (they share its schema, so each message is applied once). A message that is no grant state
 * is logged and passed over; a database failure throws, so the message is delivered again.
 */
export function productGrantsConsumer(group: string, grants: ProductGrantCopy, logger: Logger): Consumer {
  return {
    group,
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
