import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, withAdvisoryLock } from '@fieldcast/db';
import { createLogger } from '@fieldcast/kit';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { type ArchiveServer, serveArchive } from '../../packages/sync/test/archive-server.js';
import { writeGfsStep } from '../../packages/sync/test/runs.js';
import { type RunningSync, serveSync } from '../../packages/fleet/src/serve-sync.js';
import { requireEnv } from './helpers.js';

/*
 * Two `fieldcast serve sync` replicas on one PostgreSQL (docs/decisions/0252-sync-as-a-process.md):
 * while one holds a source's advisory lock the other's pass skips it, and takes it once released.
 */
const HOUR = 3_600_000;
const RUN = Math.floor(Date.now() / (6 * HOUR)) * 6 * HOUR - 6 * HOUR;
let archive: string;
let dataDir: string;
let server: ArchiveServer;
let holder: Database;
let replica: RunningSync;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'sync-lock-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'sync-lock-'));
  for (let s = 0; s <= 1; s++) writeGfsStep(archive, RUN, s);
  server = await serveArchive(archive);
  holder = await openDatabase({ url: requireEnv().url });
  const env = parseEnv(FleetEnv, {
    DATABASE_URL: requireEnv().url,
    FIELDCAST_DATA_DIR: dataDir,
    FIELDCAST_SYNC_SOURCES: 'gfs-0p25',
    FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
    HOST: '127.0.0.1',
  });
  replica = await serveSync(env, createLogger({ level: 'silent' }), { port: 0 });
});
afterAll(async () => {
  await replica.stop();
  await holder.close();
  await server.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('serve sync replicas share one PostgreSQL', () => {
  it('skips a source another replica is syncing, and syncs it once the lock is free', async () => {
    const during = await withAdvisoryLock(holder, 'fieldcast-sync:gfs-0p25', () => replica.pass());
    expect(during?.value).toEqual([{ source: 'gfs-0p25', result: null }]);
    const [after] = await replica.pass();
    expect(after).toMatchObject({ result: { state: 'pending', runMs: RUN, staged: 2 } });
  });
});
