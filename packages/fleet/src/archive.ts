import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { archiveService } from '@fieldcast/archive';
import {
  ingestStormReports,
  isReportFileType,
  REPORT_FILE_TYPES,
  StormReportFileError,
  StormReportStore,
} from '@fieldcast/archive/reports';
import { ArchiveRegistrationError, ArchiveUserStore } from '@fieldcast/archive/users';
import { type Database, outboxWriter } from '@fieldcast/db';
import { parseRange } from '@fieldcast/kit';
import { FleetEnv, migrateService } from '@fieldcast/runtime';
import { openCliDatabase } from './data-dir.js';
import { UsageError } from './usage-error.js';

type Print = (line: string) => void;

const INGEST_USAGE = `archive ingest-reports --type ${REPORT_FILE_TYPES.join('|')} --date YYYY-MM-DD [--json] FILE.csv`;
const USAGE = `usage: fieldcast archive register --user NAME --cidr RANGE[,RANGE...] [--types TYPE[,TYPE...]] [--json] | archive revoke --user NAME | ${INGEST_USAGE}`;

/** The archive's schema, migrated, on the CLI's database; a refused registration is a usage error (exit 2). */
async function withArchive<T>(env: FleetEnv, fn: (db: Database) => Promise<T>): Promise<T> {
  const { db, done } = await openCliDatabase(env);
  try {
    await migrateService(db, archiveService);
    return await fn(db);
  } catch (err) {
    if (err instanceof ArchiveRegistrationError) throw new UsageError(err.message);
    throw err;
  } finally {
    await done();
  }
}

const withUsers = <T>(env: FleetEnv, fn: (users: ArchiveUserStore) => Promise<T>) =>
  withArchive(env, (db) => fn(new ArchiveUserStore(db.knex)));

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** On stderr, so the output of `--json` stays JSON. */
const warnOnStderr: Print = (line) => process.stderr.write(`fieldcast: warning: ${line}\n`);

/**
 * `fieldcast archive register|revoke` (docs/interface.md §11): on the embedded data dir with the
 * fleet stopped, or on DATABASE_URL. Register prints the user and a new token once; only the
 * token's hash is kept. Registering a user again replaces its token, ranges and types.
 */
export async function archiveCommand(args: string[], env: FleetEnv, print: Print, warn: Print = warnOnStderr): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'ingest-reports') return ingestReportsCommand(rest, env, print);
  // Each subcommand reads its own options and refuses any other, before anything is opened.
  if (sub === 'revoke') {
    const { values } = parseArgs({ args: rest, options: { user: { type: 'string' } } });
    const name = values.user;
    if (!name) throw new UsageError(USAGE);
    const revoked = await withUsers(env, (users) => users.revoke(name));
    if (!revoked) throw new UsageError(`no archive user ${name}`);
    print(`revoked archive user ${name}`);
    return;
  }
  if (sub !== 'register') throw new UsageError(USAGE);
  const { values } = parseArgs({
    args: rest,
    options: { user: { type: 'string' }, cidr: { type: 'string' }, types: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const name = values.user;
  if (!name) throw new UsageError(USAGE);
  const ranges = list(values.cidr);
  if (ranges.length === 0) throw new UsageError(`archive register needs --cidr\n${USAGE}`);
  const types = list(values.types);
  const user = await withUsers(env, (users) => users.register({ name, ranges, ...(types.length > 0 ? { types } : {}) }));
  // A range holds addresses of its own family: `::/0` admits no IPv4 caller, however its
  // socket reports it (docs/decisions/0399-forwarded-for-ports-and-address-families.md).
  if (user.ranges.every((r) => parseRange(r).family === 6))
    warn(
      `every range of archive user ${user.name} is IPv6, so no caller over IPv4 is admitted; register its IPv4 ranges too (0.0.0.0/0 for every IPv4 address) if it calls over IPv4`,
    );
  if (values.json) {
    print(JSON.stringify(user));
    return;
  }
  print(`Archive user ${user.name}`);
  print(`  token  ${user.token}`);
  print(`  ranges ${user.ranges.join(', ')}`);
  print(`  types  ${user.types.join(', ')}`);
  print('The token is shown only now; store it safely. Requests pass it as ?u=<user>&t=<token>.');
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

/**
 * `fieldcast archive ingest-reports --type hail|wind|tornado --date YYYY-MM-DD FILE.csv`: one SPC
 * storm report file of a convective day into the archive's schema
 * (docs/decisions/0174-ingested-storm-reports.md). Every row is checked first; a fault anywhere
 * is told with its line and nothing of the file is stored. The file replaces the reports of its
 * type and day, so ingesting it again changes nothing.
 */
async function ingestReportsCommand(args: string[], env: FleetEnv, print: Print): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { type: { type: 'string' }, date: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const { type, date } = values;
  if (!type || !isReportFileType(type))
    throw new UsageError(`archive ingest-reports needs --type ${REPORT_FILE_TYPES.join('|')}\nusage: fieldcast ${INGEST_USAGE}`);
  if (!date)
    throw new UsageError(
      `archive ingest-reports needs --date, the convective day (12Z to 12Z) of the file\nusage: fieldcast ${INGEST_USAGE}`,
    );
  if (positionals.length !== 1) throw new UsageError(`archive ingest-reports takes one file\nusage: fieldcast ${INGEST_USAGE}`);
  const file = positionals[0]!;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let result: { stored: number; replaced: number };
  try {
    // The announcement goes to the archive's outbox with the reports; the archive service's relay
    // publishes it: at once on PostgreSQL (its notification), at its next start when the embedded
    // fleet is stopped (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
    result = await withArchive(env, (db) =>
      ingestStormReports(new StormReportStore(db.knex, outboxWriter(db, archiveService.area)), { type, day: date, text }),
    );
  } catch (err) {
    if (err instanceof StormReportFileError) throw new UsageError(`${file}: ${err.message}`);
    throw err;
  }
  if (values.json) {
    print(JSON.stringify({ file, type, date, ...result }));
    return;
  }
  print(`${file}: ${result.stored} ${type} reports of the convective day ${date} stored (${result.replaced} kept before were replaced)`);
}
