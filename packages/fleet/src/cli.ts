import { AREAS } from '@fieldcast/ids/areas';
import { signalExitCode } from '@fieldcast/runtime/signal-exit';
import { UsageError } from './usage-error.js';

// Each command's module is loaded when it runs: help and usage errors answer without loading the
// areas, their databases and their weather (about 2 s of module loading).

/**
 * Each command's lines of the help, in the order `fieldcast help` lists them: `fieldcast help
 * <command>` and `fieldcast <command> --help` print its own. Every option a command reads is here.
 */
const COMMANDS: ReadonlyArray<{ name: string; help: string }> = [
  { name: 'start', help: '  start                      run every service in one process (embedded: PGlite + in-process bus)' },
  {
    name: 'serve',
    help: `  serve <area>               run one service in distributed mode (needs DATABASE_URL and KAFKA_BROKERS)
  serve console              run the web console alone, calling the areas at FIELDCAST_<AREA>_URL
  serve sync                 keep FIELDCAST_SYNC_SOURCES synced into FIELDCAST_SYNC_DIR (default <FIELDCAST_DATA_DIR>/sync;
                             needs DATABASE_URL: one replica at a time syncs a source, under a PostgreSQL advisory lock)`,
  },
  { name: 'migrate', help: "  migrate [area...]          migrate identity and the services' schemas (default: every area's)" },
  {
    name: 'climate-lattice',
    help: `  climate-lattice            write the synthetic world's climate lattice to FIELDCAST_CACHE_DIR (a minute of
                             CPU, once), so every process and thread reads its climate instead of computing it`,
  },
  { name: 'accounts', help: '  accounts create --name N [--handle H] [--json]' },
  {
    name: 'keys',
    help: '  keys add --account ID [--json] | keys revoke --account ID --key KEY_ID_OR_KEY | keys list --account ID [--json]',
  },
  {
    name: 'products',
    help: `  products grant|revoke --account ID_OR_HANDLE --product NAME_OR_ID | products list --account ID_OR_HANDLE [--json]
                             restricted products an account sees (the platform area)`,
  },
  {
    name: 'archive',
    help: `  archive register --user NAME --cidr RANGE[,RANGE...] [--types TYPE[,TYPE...]] [--json] | archive revoke --user NAME
                             archive users: a token (printed once) for addresses and types (the archive area)
  archive ingest-reports --type hail|wind|tornado --date YYYY-MM-DD [--json] FILE.csv
                             an SPC storm report file of one convective day into the archive (replaces
                             that day's reports of the type; a bad row stores nothing)`,
  },
  {
    name: 'ingest',
    help: `  ingest <file> [--out DIR] [--catalog PATH] [--id ID] [--product NAME] [--overwrite]
                             CF NetCDF or GeoTIFF to a Zarr store (default out <FIELDCAST_DATA_DIR>/stores,
                             catalog <FIELDCAST_DATA_DIR>/stores.yaml); --step-hours H between GeoTIFF bands or
                             of a NetCDF file with one time; GeoTIFF also --start ISO --variable NAME --units U
                             --standard-name S`,
  },
  {
    name: 'sync',
    help: `  sync <source> [--once] [--run YYYY-MM-DDTHHZ] [--steps A-B]
                             model runs of gfs-0p25 or ecmwf-ifs-0p25 (from FIELDCAST_SOURCE_<NAME>_URL) into
                             FIELDCAST_SYNC_DIR (default <FIELDCAST_DATA_DIR>/sync), served by a running fleet within
                             FIELDCAST_SYNC_RELOAD_MS; --once syncs the newest complete run (or --run) and exits, 2 when
                             it fails; without it, polls every FIELDCAST_SYNC_POLL_MS until stopped`,
  },
];

const FOOTER = `Areas: ${AREAS.join(', ')}
Environment: see docs/operations.md ("Environment").`;

const HELP = `fieldcast <command>

${COMMANDS.map((c) => c.help).join('\n')}
  help <command>             one command's help (also: fieldcast <command> --help)

${FOOTER}`;

function helpOf(command: string): string {
  const found = COMMANDS.find((c) => c.name === command);
  if (!found) throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
  return `fieldcast ${command}\n\n${found.help}\n\n${FOOTER}`;
}

/** --help or -h among a command's arguments, before a `--` that ends its options. */
function asksForHelp(args: readonly string[]): boolean {
  const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  return options.includes('--help') || options.includes('-h');
}

/** A command that takes no arguments refuses any, rather than run as if an option it does not know were read. */
function noArguments(command: string, args: readonly string[]): void {
  if (args.length > 0) throw new UsageError(`${command} takes no arguments (got "${args.join(' ')}")\n\n${helpOf(command.split(' ')[0]!)}`);
}

/**
 * Until a command installs its own stop (a served fleet's graceful one), SIGTERM and SIGINT end
 * the process at once. As a container's PID 1 the kernel applies no default action to a signal
 * without a handler, so a pod stopped during start-up (waiting on another replica's migration
 * lock, say) would ignore SIGTERM for its whole grace period and be killed.
 */
function exitUnlessHandled(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  process.exit(signalExitCode(signal));
}
process.on('SIGTERM', exitUnlessHandled);
process.on('SIGINT', exitUnlessHandled);

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  if (!command || command === '--help' || command === '-h' || (command === 'help' && args.length === 0)) return print(HELP);
  // Asked before anything is opened: a usage question never starts a fleet or waits on a database.
  if (command === 'help') return print(helpOf(args[0]!));
  if (asksForHelp(args)) return print(helpOf(command));
  if (!COMMANDS.some((c) => c.name === command)) throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
  if (command === 'start' || command === 'climate-lattice') noArguments(command, args);
  const [what, ...rest] = args;
  if (command === 'serve') {
    if (!what) throw new UsageError(`serve needs an area, console or sync\n\n${helpOf('serve')}`);
    if (what !== 'console' && what !== 'sync' && !(AREAS as readonly string[]).includes(what))
      throw new UsageError(`serve takes an area, console or sync, not ${JSON.stringify(what)}; the areas: ${AREAS.join(', ')}`);
    noArguments(`serve ${what}`, rest);
  }
  const { FleetEnv, parseEnv, serveDistributed } = await import('@fieldcast/runtime');
  const env = parseEnv(FleetEnv);
  switch (command) {
    case 'start':
      return (await import('./start.js')).runStart(env);
    case 'serve':
      if (what === 'console') return (await import('./console.js')).serveConsole(env);
      if (what === 'sync') return (await import('./serve-sync.js')).runServeSync(env);
      await serveDistributed((await import('./services.js')).serviceNamed(what!));
      return;
    case 'migrate':
      return (await import('./migrate.js')).migrateCommand(args, env, print);
    case 'climate-lattice':
      return (await import('./migrate.js')).climateLatticeCommand(print);
    case 'accounts':
      return (await import('./accounts.js')).accountsCommand(args, env, print);
    case 'keys':
      return (await import('./accounts.js')).keysCommand(args, env, print);
    case 'products':
      return (await import('./products.js')).productsCommand(args, env, print);
    case 'archive':
      return (await import('./archive.js')).archiveCommand(args, env, print);
    case 'ingest':
      return (await import('./ingest.js')).ingestCommand(args, env, print);
    case 'sync':
      return (await import('./sync.js')).syncCommand(args, env, print);
  }
}

/**
 * The fault, if it is the operator's to fix in how the command was called or configured: a usage
 * error, an option parseArgs refuses, a setting the environment's schema refuses, a sync the
 * caller asked that failed. The last two classes are loaded only where a command already loaded
 * them.
 */
async function usersFault(err: unknown): Promise<Error | null> {
  if (err instanceof UsageError || isOptionError(err)) return err;
  const [{ ConfigError }, { SyncFailed }] = await Promise.all([import('@fieldcast/runtime'), import('./sync.js')]);
  return err instanceof ConfigError || err instanceof SyncFailed ? err : null;
}

/** node:util's parseArgs refuses an unknown or malformed option with an ERR_PARSE_ARGS_* TypeError. */
function isOptionError(err: unknown): err is Error {
  return err instanceof Error && String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_');
}

/** Node's errors of a connection that could not be made or was lost (errno(3), getaddrinfo(3)). */
const CONNECTION_FAULTS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The one line that says a server this command needs cannot be reached, or null for any other
 * fault. Read by shape: connect(2) on every address of a name fails as an AggregateError of each.
 * PostgreSQL's refusals at connection are SQLSTATE classes 08 and 28 and 3D000, 57P03 and 53300
 * (PostgreSQL's "Errors and Messages", appendix A).
 */
function unreachable(err: unknown): string | null {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[]; address?: unknown; port?: unknown; hostname?: unknown };
  if (typeof e !== 'object' || e === null || typeof e.code !== 'string') return null;
  const refusedByPostgres = /^(08|28)/.test(e.code) || ['3D000', '57P03', '53300'].includes(e.code);
  if (!CONNECTION_FAULTS.has(e.code) && !refusedByPostgres) return null;
  const first = (e.errors?.[0] ?? e) as typeof e;
  const message = [e.message, first.message].find((m) => typeof m === 'string' && m !== '') ?? e.code;
  const url = process.env.DATABASE_URL?.trim() ? URL.parse(process.env.DATABASE_URL.trim()) : null;
  if (url) {
    const port = url.port || '5432';
    const names = [url.hostname, url.hostname.replace(/^\[|\]$/g, '')];
    const same = first.port === undefined || String(first.port) === port;
    if (refusedByPostgres || (same && [first.address, first.hostname].some((h) => names.includes(String(h)))))
      return `cannot reach the database at DATABASE_URL (${url.host}${url.port ? '' : ':5432'}): ${String(message)}`;
  }
  return `cannot connect: ${String(message)}`;
}

/**
 * A port this process cannot listen on (listen(2): EADDRINUSE, EACCES), or a HOST whose name
 * resolves to nothing (getaddrinfo(3) of the listen address, not of a server it calls), or null
 * for any other fault.
 */
function cannotListen(err: unknown): string | null {
  const e = err as { code?: unknown; syscall?: unknown; address?: unknown; port?: unknown; hostname?: unknown };
  if (typeof e !== 'object' || e === null) return null;
  const host = process.env.HOST?.trim();
  if (e.syscall === 'getaddrinfo' && host && e.hostname === host)
    return `cannot listen on HOST ${host}: the name does not resolve (getaddrinfo ${String(e.code)})`;
  if (e.syscall !== 'listen') return null;
  const why: Record<string, string> = {
    EADDRINUSE: 'the address is in use (another process listens there)',
    EACCES: 'permission denied (a port below 1024 needs privileges)',
    EADDRNOTAVAIL: 'no interface of this machine has that address',
  };
  if (typeof e.code !== 'string' || !why[e.code]) return null;
  return `cannot listen on ${String(e.address)}:${String(e.port)}: ${why[e.code]}`;
}

/**
 * A path this process may not or cannot write (a data, cache or output directory the operator
 * named), or null for any other fault: the file-system errors of open(2), mkdir(2) and write(2)
 * that a setting, not the program, causes. ENOENT is not among them, since a file the program
 * expects and cannot find is a fault of the program.
 */
function cannotWrite(err: unknown): string | null {
  const e = err as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof e !== 'object' || e === null || typeof e.syscall !== 'string' || typeof e.path !== 'string') return null;
  const why: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'the file system is read-only',
    ENOTDIR: 'a part of the path is a file, not a directory',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is exceeded',
  };
  if (typeof e.code !== 'string' || !why[e.code]) return null;
  return `cannot ${e.syscall} ${e.path}: ${why[e.code]}`;
}

main(process.argv.slice(2)).catch(async (err: unknown) => {
  const fault = await usersFault(err);
  if (fault) {
    process.stderr.write(`fieldcast: ${fault.message}\n`);
    process.exit(2);
  }
  // A server this needs is down or refuses it, its port is taken or a path it writes refused: the operator's to fix, told in one line.
  const down = cannotListen(err) ?? unreachable(err) ?? cannotWrite(err);
  if (down !== null) {
    process.stderr.write(`fieldcast: ${down}\n`);
    process.exit(1);
  }
  process.stderr.write(`fieldcast: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
