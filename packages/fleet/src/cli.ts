import { constants } from 'node:os';
import { ConfigError, FleetEnv, parseEnv, serveDistributed } from '@fieldcast/runtime';
import { accountsCommand, keysCommand } from './accounts.js';
import { archiveCommand } from './archive.js';
import { ingestCommand } from './ingest.js';
import { climateLatticeCommand, migrateCommand } from './migrate.js';
import { productsCommand } from './products.js';
import { serviceNamed, SERVICES, UsageError } from './services.js';
import { serveConsole } from './console.js';
import { runStart } from './start.js';
import { runServeSync } from './serve-sync.js';
import { SyncFailed, syncCommand } from './sync.js';

const HELP = `fieldcast <command>

  start                      run every service in one process (embedded: PGlite + in-process bus)
  serve <area>               run one service in distributed mode (needs DATABASE_URL and KAFKA_BROKERS)
  serve console              run the web console alone, calling the areas at FIELDCAST_<AREA>_URL
  serve sync                 keep FIELDCAST_SYNC_SOURCES synced into <FIELDCAST_DATA_DIR>/sync (needs DATABASE_URL: one
                             replica at a time syncs a source, under a PostgreSQL advisory lock)
  migrate [area...]          migrate identity and the services' schemas
  climate-lattice            write the synthetic world's climate lattice to FIELDCAST_CACHE_DIR (a minute of
                             CPU, once), so every process and thread reads its climate instead of computing it
  accounts create --name N [--handle H] [--json]
  keys add --account ID [--json] | keys revoke --account ID --key KEY_ID | keys list --account ID
  products grant|revoke --account ID --product NAME | products list --account ID [--json]
                             restricted products an account sees (the platform area)
  archive register --user NAME --cidr RANGE[,RANGE...] [--types TYPE[,TYPE...]] [--json] | archive revoke --user NAME
                             archive users: a token (printed once) for addresses and types (the archive area)
  archive ingest-reports --type hail|wind|tornado --date YYYY-MM-DD [--json] FILE.csv
                             an SPC storm report file of one convective day into the archive (replaces
                             that day's reports of the type; a bad row stores nothing)
  ingest <file> [--out DIR] [--catalog PATH] [--id ID] [--product NAME] [--overwrite]
                             CF NetCDF or GeoTIFF to a Zarr store (default out <FIELDCAST_DATA_DIR>/stores,
                             catalog <FIELDCAST_DATA_DIR>/stores.yaml); --step-hours H between GeoTIFF bands or
                             of a NetCDF file with one time; GeoTIFF also --start ISO --variable NAME --units U
                             --standard-name S

  sync <source> [--once] [--run YYYY-MM-DDTHHZ] [--steps A-B]
                             model runs of gfs-0p25 or ecmwf-ifs-0p25 (from FIELDCAST_SOURCE_<NAME>_URL) into
                             <FIELDCAST_DATA_DIR>/sync, served by a running fleet within FIELDCAST_SYNC_RELOAD_MS;
                             --once syncs the newest complete run (or --run) and exits, 2 when it fails

Areas: ${SERVICES.map((s) => s.area).join(', ')}
Environment: see README.md ("Environment").`;

/**
 * Until a command installs its own stop (a served fleet's graceful one), SIGTERM and SIGINT end
 * the process at once. As a container's PID 1 the kernel applies no default action to a signal
 * without a handler, so a pod stopped during start-up (waiting on another replica's migration
 * lock, say) would ignore SIGTERM for its whole grace period and be killed.
 */
function exitUnlessHandled(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  process.exit(128 + (constants.signals[signal] ?? 0));
}
process.on('SIGTERM', exitUnlessHandled);
process.on('SIGINT', exitUnlessHandled);

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    print(HELP);
    return;
  }
  const env = parseEnv(FleetEnv);
  switch (command) {
    case 'start':
      return runStart(env);
    case 'serve': {
      if (!args[0]) throw new UsageError('usage: fieldcast serve <area>');
      if (args[0] === 'console') return serveConsole(env);
      if (args[0] === 'sync') return runServeSync(env);
      await serveDistributed(serviceNamed(args[0]));
      return;
    }
    case 'migrate':
      return migrateCommand(args, env, print);
    case 'climate-lattice':
      return climateLatticeCommand(print);
    case 'accounts':
      return accountsCommand(args, env, print);
    case 'keys':
      return keysCommand(args, env, print);
    case 'products':
      return productsCommand(args, env, print);
    case 'archive':
      return archiveCommand(args, env, print);
    case 'ingest':
      return ingestCommand(args, env, print);
    case 'sync':
      return syncCommand(args, env, print);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
  }
}

/** node:util's parseArgs refuses an unknown or malformed option with an ERR_PARSE_ARGS_* TypeError. */
function isOptionError(err: unknown): err is Error {
  return err instanceof Error && String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_');
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof SyncFailed || isOptionError(err)) {
    process.stderr.write(`fieldcast: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`fieldcast: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
