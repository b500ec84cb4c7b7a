import { parseArgs } from 'node:util';
import { FleetEnv, IdentityError, IdentityStore, migrateIdentity } from '@fieldcast/runtime';
import { openCliDatabase } from './data-dir.js';
import { UsageError } from './usage-error.js';

type Print = (line: string) => void;

async function withIdentity<T>(env: FleetEnv, fn: (identity: IdentityStore) => Promise<T>): Promise<T> {
  const { db, done } = await openCliDatabase(env);
  try {
    await migrateIdentity(db);
    return await fn(new IdentityStore(db.knex));
  } catch (err) {
    if (err instanceof IdentityError) throw new UsageError(err.message);
    throw err;
  } finally {
    await done();
  }
}

/** `fieldcast accounts create --name N [--handle H] [--json]`: prints the key once; only its hash is kept. */
export async function accountsCommand(args: string[], env: FleetEnv, print: Print): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('usage: fieldcast accounts create --name NAME [--handle HANDLE] [--json]');
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, handle: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (!values.name) throw new UsageError('accounts create needs --name');
  const created = await withIdentity(env, (identity) =>
    identity.createAccount({ name: values.name!, ...(values.handle ? { handle: values.handle } : {}) }),
  );
  if (values.json) {
    print(JSON.stringify({ applicationId: created.account.id, applicationKey: created.applicationKey }));
    return;
  }
  print(`Account ${created.account.name} (handle ${created.account.handle})`);
  print(`  applicationId  ${created.account.id}`);
  print(`  applicationKey ${created.applicationKey}`);
  print(`  keyId          ${created.keyId}`);
  print('The key is shown only now; store it safely.');
}

/** The options each `keys` subcommand reads: any other is refused (exit 2). */
const KEYS_OPTIONS = {
  add: { account: { type: 'string' }, json: { type: 'boolean', default: false } },
  revoke: { account: { type: 'string' }, key: { type: 'string' } },
  list: { account: { type: 'string' }, json: { type: 'boolean', default: false } },
} as const;

const isKeysSubcommand = (sub: string | undefined): sub is keyof typeof KEYS_OPTIONS =>
  sub !== undefined && Object.hasOwn(KEYS_OPTIONS, sub);

/**
 * `fieldcast keys add|revoke|list --account ID`: up to five live keys per account, for rotation.
 * Its usage is answered before the database is opened (docs/decisions/0430-cli-usage-answered-before-anything-is-opened.md).
 */
export async function keysCommand(args: string[], env: FleetEnv, print: Print): Promise<void> {
  const [sub, ...rest] = args;
  const usage =
    'usage: fieldcast keys add --account ID [--json] | keys revoke --account ID --key KEY_ID_OR_KEY | keys list --account ID [--json]';
  if (!isKeysSubcommand(sub)) throw new UsageError(usage);
  const { values } = parseArgs({ args: rest, options: KEYS_OPTIONS[sub] });
  const { account: accountId, key, json } = values as { account?: string; key?: string; json?: boolean };
  if (!accountId || (sub === 'revoke' && !key)) throw new UsageError(usage);
  await withIdentity(env, async (identity) => {
    const account = await identity.findAccount(accountId);
    if (!account) throw new UsageError(`no account ${accountId}`);
    if (sub === 'add') {
      const { keyId, applicationKey } = await identity.addKey(account.id);
      print(
        json
          ? JSON.stringify({ applicationId: account.id, applicationKey, keyId })
          : `applicationKey ${applicationKey}\nkeyId          ${keyId}`,
      );
    } else if (sub === 'revoke') {
      // Named by its id: a key given whole is not printed again.
      print(`revoked ${await identity.revokeKey(account.id, key!)}`);
    } else {
      const keys = await identity.listKeys(account.id);
      print(
        json
          ? JSON.stringify(keys)
          : keys.map((k) => `${k.id}  created ${k.createdAt}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'live'}`).join('\n'),
      );
    }
  });
}
