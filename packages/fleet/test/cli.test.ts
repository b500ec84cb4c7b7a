import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { keysCommand } from '../src/accounts.js';
import { archiveCommand } from '../src/archive.js';
import { productsCommand } from '../src/products.js';
import { syncCommand } from '../src/sync.js';
import { UsageError } from '../src/usage-error.js';
import { useCliDataDir } from './cli-process.js';

const { dir, fieldcast, fieldcastWith } = useCliDataDir('fieldcast-cli-');

/** A usage error whose message matches: the CLI prints it after "fieldcast: " and exits 2. */
const refusal = (message: RegExp) => expect.objectContaining({ constructor: UsageError, message: expect.stringMatching(message) });

describe('fieldcast accounts and keys (embedded data dir, fleet stopped)', () => {
  // Each call is a real process opening PGlite on disk (a few seconds); the five-key limit itself
  // is tested on IdentityStore.
  it('creates an account, adds, lists and revokes keys', async () => {
    const created = await fieldcast('accounts', 'create', '--name', 'Prairie Co-op', '--json');
    expect(created.code).toBe(0);
    const { applicationId, applicationKey } = JSON.parse(created.stdout);
    expect(applicationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(applicationKey).toMatch(/^fc1\./);

    const added = await fieldcast('keys', 'add', '--account', 'prairie-co-op', '--json');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ applicationId, applicationKey: expect.stringMatching(/^fc1\./) });

    const [, keyId, secret] = applicationKey.split('.');
    // Revoked by the whole key, it answers with the key's id: the secret is shown only when made.
    const revoked = await fieldcast('keys', 'revoke', '--account', applicationId, '--key', applicationKey);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout.replace(/-/g, '')).toBe(`revoked ${keyId}\n`);
    expect(revoked.stdout + revoked.stderr).not.toContain(secret);
    const list = JSON.parse((await fieldcast('keys', 'list', '--account', applicationId, '--json')).stdout);
    expect(list).toHaveLength(2);
    expect(list.find((k: { id: string }) => k.id.replace(/-/g, '') === keyId).revokedAt).not.toBeNull();
  }, 120_000);

  it('usage errors exit 2 with a message', async () => {
    const res = await fieldcast('accounts', 'create');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('accounts create needs --name');
    // A mistyped option is a usage error too, not a crash with a stack trace.
    for (const [option, args] of [
      ['--acount', ['keys', 'list', '--acount', 'x']],
      ['--cidrs', ['archive', 'register', '--user', 'u', '--cidrs', '10.0.0.0/8']],
    ] as const) {
      const typo = await fieldcast(...args);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain(`Unknown option '${option}'`);
      expect(typo.stderr).not.toMatch(/\n\s+at /);
    }
    const serve = await fieldcast('serve', 'agriculture');
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('Distributed mode needs DATABASE_URL and KAFKA_BROKERS');
  }, 60_000);

  it('migrate reports every schema', async () => {
    const res = await fieldcast('migrate');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('identity: up to date');
    expect(res.stdout).toContain('agriculture: up to date');
  }, 60_000);

  it('the data dir stays closed to the CLI while a fleet holds it', async () => {
    const pidFile = join(dir(), 'fleet.pid');
    writeFileSync(pidFile, String(process.pid));
    try {
      const res = await fieldcast('accounts', 'create', '--name', 'blocked');
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`the embedded fleet (pid ${process.pid}) is using`);
    } finally {
      rmSync(pidFile, { force: true });
    }
  }, 60_000);
});

describe('fieldcast help, and what a command refuses before it does anything', () => {
  it("prints one command's help on stdout, exit 0, for help <command> and <command> --help, touching nothing", async () => {
    for (const args of [
      ['help', 'keys'],
      ['keys', '--help'],
      ['keys', 'list', '-h'],
    ]) {
      const res = await fieldcast(...args);
      expect([args, res.code, res.stderr]).toEqual([args, 0, '']);
      // every option the command reads, and no other command
      expect(res.stdout).toContain('keys list --account ID [--json]');
      expect(res.stdout).toContain('--key KEY_ID_OR_KEY');
      expect(res.stdout).not.toContain('climate-lattice');
    }
    // before the catalog and the database are opened: a usage question never waits on them
    const products = await fieldcastWith({ DATABASE_URL: 'postgres://fieldcast@127.0.0.1:1/none' }, 'products', 'grant', '--help');
    expect(products).toMatchObject({ code: 0, stderr: '' });
    expect(products.stdout).toContain('products grant|revoke --account ID_OR_HANDLE --product NAME_OR_ID');
    for (const command of ['migrate', 'sync', 'ingest', 'archive', 'serve']) {
      const res = await fieldcast(command, '--help');
      expect([command, res.code, res.stderr]).toEqual([command, 0, '']);
      expect(res.stdout).toMatch(new RegExp(`^fieldcast ${command}\\b`));
    }
    expect(await fieldcast('help', 'frobnicate')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('unknown command "frobnicate"'),
    });
  }, 120_000);

  it('answers help and a usage error without loading an area, the runtime or a database', async () => {
    // A module hook (node:module register) that fails the process on any of them: help is a
    // fraction of a second, where loading the areas takes about two.
    const hooks = join(dir(), 'refuse-areas.mjs');
    writeFileSync(
      hooks,
      `export async function resolve(specifier, context, next) {
        const found = await next(specifier, context);
        if (/\\/(services\\/[a-z]+\\/src|packages\\/(runtime|db)\\/src)\\/index\\.ts$/.test(found.url)) throw new Error('loaded ' + found.url);
        return found;
      }`,
    );
    const register = join(dir(), 'register-refuse-areas.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const refusing = { NODE_OPTIONS: `--import ${register}` };
    for (const [args, code] of [
      [[], 0],
      [['help', 'sync'], 0],
      [['keys', '--help'], 0],
      [['frobnicate'], 2],
      [['serve'], 2],
      [['serve', 'nope'], 2],
      [['start', '--port', '1'], 2],
    ] as const) {
      const res = await fieldcastWith(refusing, ...args);
      expect([args, res.code, res.stderr.includes('loaded ')]).toEqual([args, code, false]);
    }
    // the hook refuses what a command that runs loads: it is no hook that refuses nothing
    const migrate = await fieldcastWith(refusing, 'migrate');
    expect(migrate).toMatchObject({ code: 1, stderr: expect.stringContaining('loaded ') });
  }, 120_000);

  it('refuses to serve what is no area, naming every form serve takes', async () => {
    const res = await fieldcast('serve', 'nope');
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toBe(
      'fieldcast: serve takes an area, console or sync, not "nope"; the areas: agriculture, tiles, insight, platform, model, observations, transfer, events, archive, alerts\n',
    );
  }, 60_000);

  it('refuses arguments to a command that takes none, instead of running it', async () => {
    // climate-lattice would spend a minute of CPU on the lattice; start would start a fleet
    const res = await fieldcast('climate-lattice', '--out', 'x');
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toContain('fieldcast: climate-lattice takes no arguments');
  }, 120_000);

  it('refuses a malformed --steps or --run of sync, exit 2 naming the option, before it polls', async () => {
    // Without --once sync polls until stopped: a malformed option would fail every pass, forever.
    const upstream = { FIELDCAST_SOURCE_GFS_0P25_URL: 'http://127.0.0.1:1', FIELDCAST_SYNC_RETRY_MS: '10' };
    const res = await fieldcastWith(upstream, 'sync', 'gfs-0p25', '--steps', 'abc');
    expect(res).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^fieldcast: --steps: /) });
    // each refusal, in this process (the process above shows how one reaches the user)
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dir(), ...upstream });
    const sync = (...args: string[]) => syncCommand(['gfs-0p25', ...args], env, () => undefined);
    for (const [option, value] of [
      ['--steps', 'abc'],
      ['--steps', '6-2'],
      ['--run', '2026-12-02'],
      ['--run', '2026-12-02T03Z'],
    ] as const) {
      for (const once of [[], ['--once']]) await expect(sync(...once, option, value)).rejects.toThrow(refusal(new RegExp(`^${option}: `)));
    }
    // With --run, a range holding none of that run's steps is known before anything starts too.
    await expect(sync('--run', '2026-12-02T12Z', '--steps', '400-500')).rejects.toThrow(
      refusal(/^--steps: gfs-0p25 writes no step from 400 to 500 h/),
    );
  }, 120_000);

  it('refuses an option a subcommand does not take, and a usage fault of keys, archive or products, before it opens the database', async () => {
    // An unreachable database answers exit 1: a usage fault must be told (exit 2) without it.
    const unreachable = { DATABASE_URL: 'postgres://fieldcast@127.0.0.1:1/none' };
    const res = await fieldcastWith(unreachable, 'archive', 'revoke', '--user', 'u', '--cidr', '10.0.0.0/8');
    expect(res).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining("Unknown option '--cidr'") });
    // each refusal, in this process: a usage error or parseArgs' refusal, which the CLI tells with exit 2
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dir(), ...unreachable });
    const commands = { archive: archiveCommand, keys: keysCommand, products: productsCommand };
    for (const [[command, ...args], said] of [
      [['archive', 'revoke', '--user', 'u', '--cidr', '10.0.0.0/8'], "Unknown option '--cidr'"],
      [['archive', 'revoke', '--user', 'u', '--types', 'hail'], "Unknown option '--types'"],
      [['archive', 'revoke', '--user', 'u', '--json'], "Unknown option '--json'"],
      [['archive', 'frobnicate', '--user', 'u'], 'usage: fieldcast archive register'],
      [['keys', 'frobnicate', '--account', 'x'], 'usage: fieldcast keys add'],
      [['keys', 'revoke', '--account', 'x'], 'usage: fieldcast keys add'],
      [['keys', 'add', '--account', 'x', '--key', 'k'], "Unknown option '--key'"],
      [['keys', 'revoke', '--account', 'x', '--key', 'k', '--json'], "Unknown option '--json'"],
      [['products', 'frobnicate', '--account', 'x'], 'usage: fieldcast products grant'],
      [['products', 'grant', '--account', 'x'], 'usage: fieldcast products grant'],
      [['products', 'list'], 'usage: fieldcast products grant'],
      [['products', 'list', '--account', 'x', '--acount', 'y'], "Unknown option '--acount'"],
    ] as const) {
      const refused = await commands[command]([...args], env, () => undefined).then(
        () => null,
        (err: Error & { code?: string }) => err,
      );
      expect([command, args, refused instanceof UsageError || String(refused?.code).startsWith('ERR_PARSE_ARGS_')]).toEqual([
        command,
        args,
        true,
      ]);
      expect(refused!.message).toContain(said);
    }
  }, 120_000);

  it('an unreachable database is one line on stderr naming it, exit 1, nothing on stdout and no stack trace', async () => {
    const url = 'postgres://fieldcast@127.0.0.1:1/none';
    for (const args of [['migrate'], ['accounts', 'create', '--name', 'x', '--json']]) {
      const res = await fieldcastWith({ DATABASE_URL: url }, ...args);
      expect([args, res.code, res.stdout]).toEqual([args, 1, '']);
      expect(res.stderr).toBe('fieldcast: cannot reach the database at DATABASE_URL (127.0.0.1:1): connect ECONNREFUSED 127.0.0.1:1\n');
    }
  }, 120_000);
});

test('a port another process holds is one line on stderr naming it, exit 1, no stack trace', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as { port: number };
  try {
    const res = await fieldcastWith({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' }, 'serve', 'console');
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toBe(`fieldcast: cannot listen on 127.0.0.1:${port}: the address is in use (another process listens there)\n`);
  } finally {
    holder.close();
  }
}, 60_000);

test('a HOST that names no address is one line on stderr naming HOST, exit 1, not a connection it could not make', async () => {
  const res = await fieldcastWith({ PORT: '19999', HOST: 'no-such-host.invalid', LOG_LEVEL: 'silent' }, 'serve', 'console');
  expect(res).toMatchObject({ code: 1, stdout: '' });
  expect(res.stderr).toBe('fieldcast: cannot listen on HOST no-such-host.invalid: the name does not resolve (getaddrinfo ENOTFOUND)\n');
}, 60_000);

test('a data dir that cannot be made is one line on stderr naming the path, exit 1, no stack trace', async () => {
  // FIELDCAST_DATA_DIR under a file: mkdir(2) fails with ENOTDIR, as it fails with EACCES or EROFS
  // where the operator named a directory this process may not write.
  const file = join(dir(), 'not-a-directory');
  writeFileSync(file, '');
  const res = await fieldcastWith({ FIELDCAST_DATA_DIR: join(file, 'data') }, 'accounts', 'create', '--name', 'x');
  expect(res).toMatchObject({ code: 1, stdout: '' });
  expect(res.stderr).toBe(`fieldcast: cannot mkdir ${join(file, 'data')}: a part of the path is a file, not a directory\n`);
}, 60_000);

test('the help of sync and serve sync names FIELDCAST_SYNC_DIR, where both write', async () => {
  for (const command of ['sync', 'serve']) {
    const res = await fieldcast('help', command);
    expect([command, res.code, res.stdout]).toEqual([
      command,
      0,
      expect.stringContaining('FIELDCAST_SYNC_DIR (default <FIELDCAST_DATA_DIR>/sync'),
    ]);
  }
}, 60_000);
