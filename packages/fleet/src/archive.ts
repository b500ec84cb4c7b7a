import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { archiveService } from '@fieldcast/archive';
import { ArchiveRegistrationError, ArchiveUserStore } from '@fieldcast/archive/users';
import type { Database } from '@fieldcast/db';
import { FleetEnv, migrateService } from '@fieldcast/runtime';
import { openCliDatabase } from './data-dir.js';
import { UsageError } from './services.js';

type Print = (line: string) => void;

const USAGE =
  'usage: fieldcast archive register --user NAME --cidr RANGE[,RANGE...] [--types TYPE[,TYPE...]] [--json] | archive revoke --user NAME';

async function withUsers<T>(env: FleetEnv, fn: (users: ArchiveUserStore) => Promise<T>): Promise<T> {
  const { db, done } = await openCliDatabase(env);
  try {
    await migrateService(db, archiveService);
    return await fn(new ArchiveUserStore(db.knex));
  } catch (err) {
    if (err instanceof ArchiveRegistrationError) throw new UsageError(err.message);
    throw err;
  } finally {
    await done();
  }
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * `fieldcast archive register|revoke` (docs/interface.md §11): on the embedded data dir with the
 * fleet stopped, or on DATABASE_URL. Register prints the user and a new token once; only the
 * token's hash is kept. Registering a user again replaces its token, ranges and types.
 */
export async function archiveCommand(args: string[], env: FleetEnv, print: Print): Promise<void> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { user: { type: 'string' }, cidr: { type: 'string' }, types: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (!values.user) throw new UsageError(USAGE);
  const name = values.user;
  if (sub === 'register') {
    const ranges = list(values.cidr);
    if (ranges.length === 0) throw new UsageError(`archive register needs --cidr\n${USAGE}`);
    const types = list(values.types);
    const user = await withUsers(env, (users) => users.register({ name, ranges, ...(types.length > 0 ? { types } : {}) }));
    if (values.json) {
      print(JSON.stringify(user));
      return;
    }
    print(`Archive user ${user.name}`);
    print(`  token  ${user.token}`);
    print(`  ranges ${user.ranges.join(', ')}`);
    print(`  types  ${user.types.join(', ')}`);
    print('The token is shown only now; store it safely. Requests pass it as ?u=<user>&t=<token>.');
    return;
  }
  if (sub === 'revoke') {
    const revoked = await withUsers(env, (users) => users.revoke(name));
    if (!revoked) throw new UsageError(`no archive user ${name}`);
    print(`revoked archive user ${name}`);
    return;
  }
  throw new UsageError(USAGE);
}

export interface ArchiveCredentials {
  user: string;
  token: string;
  ranges: string[];
}

/** The loopback, IPv4 and IPv6: the embedded fleet listens there by default. */
const DEMO_RANGES = ['127.0.0.1/32', '::1/128'];

/**
 * On the embedded fleet's first start the demo account gets an archive user for the loopback,
 * saved beside the demo credentials (docs/interface.md §11); later starts reuse it while the
 * database still accepts its token.
 */
export async function ensureDemoArchiveUser(db: Database, dataDir: string): Promise<{ credentials: ArchiveCredentials; file: string }> {
  const file = join(dataDir, 'demo-archive-user.json');
  const users = new ArchiveUserStore(db.knex);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as ArchiveCredentials;
    if (await users.accepts(saved.user, saved.token)) return { credentials: saved, file };
  }
  const created = await users.register({ name: 'demo', ranges: DEMO_RANGES });
  const credentials = { user: created.name, token: created.token, ranges: created.ranges };
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { credentials, file };
}
