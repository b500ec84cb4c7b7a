import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetEnv, filesFromEnv, parseEnv } from '../src/env.js';
import { DEFAULT_FILE_CACHE_BYTES, serviceFiles } from '../src/files.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-files-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('service files', () => {
  it('gives each service a directory of its own under the data dir', () => {
    const files = serviceFiles({ dataDir }, 'transfer');
    expect(files.dir).toBe(join(dataDir, 'transfer'));
    expect(statSync(files.dir).isDirectory()).toBe(true);
    expect(files.cacheBytes).toBe(DEFAULT_FILE_CACHE_BYTES);
  });

  it('creates one signing key in the data dir, readable by its owner only, and keeps it', () => {
    const first = serviceFiles({ dataDir }, 'transfer').signingKey;
    const again = serviceFiles({ dataDir }, 'tiles').signingKey;
    expect(first.length).toBe(64);
    expect(again.equals(first)).toBe(true);
    expect(statSync(join(dataDir, 'signing-key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'signing-key'), 'utf8')).toBe(first.toString('utf8'));
  });

  it('takes the key from the environment when it is set, and writes none', () => {
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, FIELDCAST_SIGNING_KEY: 'k'.repeat(40), FIELDCAST_FILE_CACHE_MB: '3' });
    const files = serviceFiles(filesFromEnv(env), 'transfer');
    expect(files.signingKey.toString('utf8')).toBe('k'.repeat(40));
    expect(files.cacheBytes).toBe(3 * 1024 * 1024);
    expect(() => statSync(join(dataDir, 'signing-key'))).toThrow();
  });

  it('refuses a short signing key at start-up', () => {
    expect(() => parseEnv(FleetEnv, { FIELDCAST_SIGNING_KEY: 'short' })).toThrow(/FIELDCAST_SIGNING_KEY/);
  });
});
