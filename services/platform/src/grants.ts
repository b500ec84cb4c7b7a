import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import type { OutboxWriter } from '@fieldcast/db';
import { type Catalog, possibleSyncedProducts, type ProductDef, productId } from '@fieldcast/weather';
import { ProductGrants } from './store.js';

/** A grant command that cannot be carried out: the CLI prints the message and exits 2. */
export class GrantCommandError extends Error {
  override name = 'GrantCommandError';
}

const USAGE =
  'usage: fieldcast products grant --account ID_OR_HANDLE --product NAME_OR_ID | products revoke --account ID_OR_HANDLE --product NAME_OR_ID | products list --account ID_OR_HANDLE [--json]';

/** A `fieldcast products` command as its arguments give it, checked before anything is opened. */
export type ProductGrantsRequest =
  { sub: 'list'; account: string; json: boolean } | { sub: 'grant' | 'revoke'; account: string; product: string; json: boolean };

const isGrantSubcommand = (sub: string | undefined): sub is ProductGrantsRequest['sub'] =>
  sub === 'grant' || sub === 'revoke' || sub === 'list';

/**
 * Reads the arguments of `fieldcast products`, refusing a usage fault with GrantCommandError: the
 * fleet calls it before it opens the catalog and the database, so a usage fault is told without
 * them (docs/decisions/0430-cli-usage-answered-before-anything-is-opened.md, 0440).
 */
export function parseProductGrantsArgs(args: string[]): ProductGrantsRequest {
  const [sub, ...rest] = args;
  let values: { account?: string; product?: string; json?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { account: { type: 'string' }, product: { type: 'string' }, json: { type: 'boolean', default: false } },
    }));
  } catch (err) {
    throw new GrantCommandError(`${(err as Error).message}\n${USAGE}`);
  }
  const { account, product, json = false } = values;
  if (!account || !isGrantSubcommand(sub)) throw new GrantCommandError(USAGE);
  if (sub === 'list') return { sub, account, json };
  if (!product) throw new GrantCommandError(USAGE);
  return { sub, account, product, json };
}

/**
 * The package's second entry point, `@fieldcast/platform/grants`, for the fleet's CLI only.
 * `fieldcast products grant|revoke|list` (docs/decisions/0121-product-access.md): which
 * accounts see which restricted products. The fleet opens the database (the embedded data dir
 * while the fleet is stopped, like `accounts create`, or DATABASE_URL) and migrates the platform
 * schema; this reads the arguments and changes the grants, each change with its message in the
 * platform's outbox, which the platform service's relay publishes.
 */
export async function productGrantsCommand(
  args: string[],
  deps: {
    knex: Knex;
    /** the fleet's catalog, with its override, as the platform service is given it */
    catalog: Catalog;
    outbox: OutboxWriter;
    identity: { findAccount(idOrHandle: string): Promise<{ id: string; handle: string } | null> };
    /** the sources the sync knows (`SOURCES` of packages/sync), whose products are granted with their catalog products */
    syncedSources: readonly string[];
  },
  print: (line: string) => void,
): Promise<void> {
  const values = parseProductGrantsArgs(args);
  const account = await deps.identity.findAccount(values.account);
  if (!account) throw new GrantCommandError(`no account ${values.account}`);
  const grants = new ProductGrants(deps.knex, deps.outbox);
  if (values.sub === 'list') {
    const names = await grants.list(account.id);
    print(values.json ? JSON.stringify(names) : names.length ? names.join('\n') : `account ${account.handle} has no restricted products`);
    return;
  }
  const { sub } = values;
  const product = deps.catalog.product(values.product);
  if (!product) {
    const synced = syncedProductOf(values.product, deps.catalog, deps.syncedSources);
    if (!synced) throw new GrantCommandError(`no product ${values.product}`);
    if (synced.base.access !== 'restricted') throw new GrantCommandError(`product ${synced.name} is public: every account sees it`);
    throw new GrantCommandError(
      `product ${synced.name} is made from ${synced.base.name} and granted with it, as are the other synced sources' products made from it: fieldcast products ${sub} --account ${values.account} --product ${synced.base.name}`,
    );
  }
  if (product.access !== 'restricted') throw new GrantCommandError(`product ${product.name} is public: every account sees it`);
  if (sub === 'grant') {
    const added = await grants.grant(account.id, product);
    print(added ? `granted ${product.name} to ${account.handle}` : `${account.handle} already had ${product.name}`);
  } else {
    const removed = await grants.revoke(account.id, product.id);
    print(removed ? `revoked ${product.name} from ${account.handle}` : `${account.handle} did not have ${product.name}`);
  }
}

/**
 * The synced source's product a name or id names, with the catalog product it is made from
 * (docs/decisions/0315-synced-sources-as-products.md): any a known source may have, whichever
 * variables its runs turn out to hold, so the answer is the same before its first run. Such a
 * product is granted with its catalog product
 * (docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
 */
function syncedProductOf(ref: string, catalog: Catalog, sources: readonly string[]): { name: string; base: ProductDef } | undefined {
  const key = ref.toLowerCase();
  // names are matched exactly, ids in any case (docs/decisions/0407-product-names-matched-exactly.md)
  return possibleSyncedProducts(sources, catalog.products()).find(({ name }) => name === ref || productId(name) === key);
}
