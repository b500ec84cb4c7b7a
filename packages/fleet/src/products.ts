import { outboxWriter } from '@fieldcast/db';
import { platformService } from '@fieldcast/platform';
import { GrantCommandError, parseProductGrantsArgs, productGrantsCommand } from '@fieldcast/platform/grants';
import { FleetEnv, IdentityStore, migrateIdentity, migrateService, openCatalog } from '@fieldcast/runtime';
import { SOURCES } from '@fieldcast/sync';
import { openCliDatabase } from './data-dir.js';
import { UsageError } from './usage-error.js';

/**
 * `fieldcast products grant|revoke|list --account ID [--product NAME]`: restricted products per
 * account, on DATABASE_URL or the embedded data dir while the fleet is stopped (docs/interface.md §6).
 */
export async function productsCommand(args: string[], env: FleetEnv, print: (line: string) => void): Promise<void> {
  try {
    // A usage fault is told before the catalog and the database are opened (docs/decisions/0430-cli-usage-answered-before-anything-is-opened.md).
    parseProductGrantsArgs(args);
    const catalog = await openCatalog(env.FIELDCAST_CATALOG);
    const { db, done } = await openCliDatabase(env);
    try {
      await migrateIdentity(db);
      await migrateService(db, platformService);
      await productGrantsCommand(
        args,
        {
          knex: db.knex,
          catalog,
          outbox: outboxWriter(db, platformService.area),
          identity: new IdentityStore(db.knex),
          // a synced source's products are granted with their catalog products, named whether or not the source is synced here
          syncedSources: Object.keys(SOURCES),
        },
        print,
      );
    } finally {
      await done();
    }
  } catch (err) {
    if (err instanceof GrantCommandError) throw new UsageError(err.message);
    throw err;
  }
}
