import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reservePortBase } from '@fieldcast/runtime/testing';

const CLI = join(process.cwd(), 'packages/fleet/src/cli.ts');
const PORT_BASE = reservePortBase();

/** A new PID namespace (util-linux unshare, as root) runs the CLI as PID 1, as a container does. */
const asInit = process.getuid?.() === 0 && spawnSync('unshare', ['-fp', '--mount-proc', 'true']).status === 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (check()) return true;
  return check();
}

/** The pid, in this namespace, of the one child of `pid` (the CLI under unshare). */
const childOf = (pid: number) => Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]);

(asInit ? describe : describe.skip)('the CLI as PID 1', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-signals-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('ends at SIGTERM during start-up, which the kernel would otherwise ignore for PID 1', async () => {
    const unshare = spawn('unshare', ['-fp', '--mount-proc', '--kill-child=SIGKILL', process.execPath, '--import', 'tsx', CLI, 'start'], {
      env: {
        ...process.env,
        FIELDCAST_DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT_BASE: String(PORT_BASE),
        LOG_LEVEL: 'silent',
        NODE_OPTIONS: '',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => unshare.once('exit', (code) => resolve(code)));
    try {
      // The fleet claims its data dir first thing: by then the CLI's module has run.
      expect(await until(() => existsSync(join(dataDir, 'fleet.pid')), 20_000)).toBe(true);
      process.kill(childOf(unshare.pid!), 'SIGTERM');
      const code = await Promise.race([exited, sleep(5_000).then(() => 'still running')]);
      expect(code).toBe(128 + 15);
    } finally {
      // --kill-child: the CLI goes with it
      unshare.kill('SIGKILL');
      await exited;
    }
  });
});

describe('the start script, as `pnpm start` runs it', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-start-script-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // A process manager or a container runtime signals the process it started, not its children:
  // the script's process must be the fleet, or hand the signal on and wait for it, so the embedded
  // database is closed and the data dir released rather than the fleet killed outright.
  it('ends cleanly at SIGTERM sent to the script’s process alone, releasing the data dir', async () => {
    const root = process.cwd();
    const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const started = spawn('sh', ['-c', `exec ${script}`], {
      cwd: root,
      env: {
        ...process.env,
        PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}`,
        FIELDCAST_DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT_BASE: String(PORT_BASE + 50),
        LOG_LEVEL: 'silent',
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let printed = '';
    started.stdout!.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
    try {
      const pidFile = join(dataDir, 'fleet.pid');
      // running, as it tells its user: the areas listen and the database is open
      expect(await until(() => printed.includes('Ctrl-C stops the fleet.'), 120_000)).toBe(true);
      expect(existsSync(pidFile)).toBe(true);
      started.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(30_000).then(() => 'still running')]);
      expect([code === 0 || code === 128 + 15, existsSync(pidFile)]).toEqual([true, false]);
    } finally {
      started.kill('SIGKILL');
      await exited;
    }
  }, 200_000);
});
