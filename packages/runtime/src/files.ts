import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What a service that declares `files` is given (needs.ts; docs/decisions/0160-service-files-and-signing-key.md). */
export interface ServiceFiles {
  /** a directory of its own, `<data dir>/<area>`, created at start: caches of what it produces */
  dir: string;
  /** the most bytes it may keep there (FIELDCAST_FILE_CACHE_MB) */
  cacheBytes: number;
  /**
   * the key it signs URLs with: FIELDCAST_SIGNING_KEY, else a random key kept in
   * `<data dir>/signing-key`, so links stay valid across restarts of one data dir
   */
  signingKey: Buffer;
}

/** Where the files of a process live, as the environment sets them (docs/operations.md "Environment"). */
export interface FilesConfig {
  dataDir: string;
  /** default 2 GiB */
  cacheBytes?: number;
  /** FIELDCAST_SIGNING_KEY; none reads or creates the data dir's key */
  signingKey?: string;
}

export const DEFAULT_FILE_CACHE_BYTES = 2 * 1024 ** 3;

/**
 * The data dir's signing key, created on first use: 32 random bytes, readable by the owner only.
 * `wx` makes the creation exclusive, so two processes starting at once agree on one key.
 */
function dataDirSigningKey(dataDir: string): Buffer {
  const path = join(dataDir, 'signing-key');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from(readFileSync(path, 'utf8').trim(), 'utf8');
}

/** The files of one service: its directory under the data dir, created now, and the signing key. */
export function serviceFiles(config: FilesConfig, area: string): ServiceFiles {
  const root = resolve(config.dataDir);
  const dir = join(root, area);
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    cacheBytes: config.cacheBytes ?? DEFAULT_FILE_CACHE_BYTES,
    signingKey: config.signingKey ? Buffer.from(config.signingKey, 'utf8') : dataDirSigningKey(root),
  };
}
