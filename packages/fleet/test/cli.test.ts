import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'packages/fleet/src/cli.ts');
const TSX = join(process.cwd(), 'node_modules/.bin/tsx');

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-cli-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function fieldcast(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, FIELDCAST_DATA_DIR: dataDir, DATABASE_URL: '', NODE_OPTIONS: '' };
  try {
    const { stdout, stderr } = await run(TSX, [CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

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

    const keyId = applicationKey.split('.')[1];
    expect((await fieldcast('keys', 'revoke', '--account', applicationId, '--key', applicationKey)).code).toBe(0);
    const list = JSON.parse((await fieldcast('keys', 'list', '--account', applicationId, '--json')).stdout);
    expect(list).toHaveLength(2);
    expect(list.find((k: { id: string }) => k.id.replace(/-/g, '') === keyId).revokedAt).not.toBeNull();
  }, 120_000);

  it('usage errors exit 2 with a message', async () => {
    const res = await fieldcast('accounts', 'create');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('accounts create needs --name');
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
    const pidFile = join(dataDir, 'fleet.pid');
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
