import { parseArgs } from 'node:util';
import { FleetEnv, IdentityError, IdentityStore, migrateIdentity } from '@fieldcast/runtime';
import { openCliDatabase } from './data-dir.js';
import { UsageError } from './services.js';

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

/** `fieldcast keys add|revoke|list --account ID`: up to five live keys per account, for rotation. */
export async function keysCommand(args: string[], env: FleetEnv, print: Print): Promise<void> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { account: { type: 'string' }, key: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const usage =
    'usage: fieldcast keys add --account ID [--json] | keys revoke --account ID --key KEY_ID_OR_KEY | keys list --account ID [--json]';
  if (!values.account) throw new UsageError(usage);
  const accountId = values.account;
  await withIdentity(env, async (identity) => {
    const account = await identity.findAccount(accountId);
    if (!account) throw new UsageError(`no account ${accountId}`);
    if (sub === 'add') {
      const { keyId, applicationKey } = await identity.addKey(account.id);
      print(
        values.json
          ? JSON.stringify({ applicationId: account.id, applicationKey, keyId })
          : `applicationKey ${applicationKey}\nkeyId          ${keyId}`,
      );
    } else if (sub === 'revoke') {
      if (!values.key) throw new UsageError(usage);
      // Named by its id: a key given whole is not printed again.
      print(`revoked ${await identity.revokeKey(account.id, values.key)}`);
    } else if (sub === 'list') {
      const keys = await identity.listKeys(account.id);
      print(
        values.json
          ? JSON.stringify(keys)
          : keys.map((k) => `${k.id}  created ${k.createdAt}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'live'}`).join('\n'),
      );
    } else {
      throw new UsageError(usage);
    }
  });
}
