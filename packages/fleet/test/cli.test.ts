import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliDataDir } from './cli-process.js';

const { dir, fieldcast } = useCliDataDir('fieldcast-cli-');

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
