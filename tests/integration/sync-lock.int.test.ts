import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdvisoryLockLost, type Database, openDatabase, withAdvisoryLock } from '@fieldcast/db';
import { createLogger } from '@fieldcast/kit';
import { FleetEnv, parseEnv, syncDirFromEnv } from '@fieldcast/runtime';
import { syncRun } from '../../packages/sync/src/index.js';
import { readSourceRegistry } from '@fieldcast/weather';
import { type ArchiveServer, serveArchive } from '../../packages/sync/test/archive-server.js';
import { writeGfsStep } from '../../packages/sync/test/runs.js';
import { type RunningSync, serveSync } from '../../packages/fleet/src/serve-sync.js';
import { requireEnv } from './helpers.js';

/*
 * Two `fieldcast serve sync` replicas on one PostgreSQL (docs/decisions/0252-sync-as-a-process.md):
 * while one holds a source's advisory lock the other's pass skips it, and takes it once released;
 * a holder whose session drops (so the lock with it) stops writing before its next step.
 */
const HOUR = 3_600_000;
const RUN = Math.floor(Date.now() / (6 * HOUR)) * 6 * HOUR - 6 * HOUR;
/** A run of many steps, for a sync that loses its lock midway. */
const LONG_RUN = RUN - 6 * HOUR;
let archive: string;
let dataDir: string;
let server: ArchiveServer;
let holder: Database;
let replica: RunningSync;

/** A `serve sync` replica's environment: GFS from the test archive, its files under `dir`. */
const replicaEnv = (dir: string) =>
  parseEnv(FleetEnv, {
    DATABASE_URL: requireEnv().url,
    FIELDCAST_DATA_DIR: dir,
    FIELDCAST_SYNC_SOURCES: 'gfs-0p25',
    FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
    HOST: '127.0.0.1',
  });

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'sync-lock-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'sync-lock-'));
  for (let s = 0; s <= 1; s++) writeGfsStep(archive, RUN, s);
  for (let s = 0; s <= 12; s++) writeGfsStep(archive, LONG_RUN, s);
  server = await serveArchive(archive);
  holder = await openDatabase({ url: requireEnv().url });
  replica = await serveSync(replicaEnv(dataDir), createLogger({ level: 'silent' }), { port: 0 });
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

describe('a lock lost with its session', () => {
  it("aborts the holder's sync before its next step, and publishes nothing", async () => {
    const lock = 'fieldcast-sync:lost-session-test';
    const syncDir = join(dataDir, 'lost');
    const steps: string[] = [];
    let terminated: Promise<unknown> | undefined;
    const outcome = await withAdvisoryLock(holder, lock, (signal) =>
      syncRun({
        source: 'gfs-0p25',
        baseUrl: server.baseUrl,
        syncDir,
        runMs: LONG_RUN,
        steps: '0-12',
        stepRetries: 0,
        signal,
        progress: (line) => {
          if (!/ step \d+ h /.test(line)) return;
          steps.push(line);
          // PostgreSQL restarted under the holder: its session, and the lock with it, are gone.
          // pg_locks gives an advisory lock on a bigint key as its high and low 32 bits.
          terminated ??= Promise.resolve(
            holder.knex.raw(
              `select pg_terminate_backend(pid) from pg_locks
              where locktype = 'advisory' and objid = (hashtext(?)::bigint & 4294967295)::text::oid`,
              [lock],
            ),
          );
        },
      }),
    ).catch((error: unknown) => error);
    await terminated;
    expect(outcome).toBeInstanceOf(AdvisoryLockLost);
    expect(steps.length).toBeLessThan(13);
    expect((await readSourceRegistry(join(syncDir, 'gfs-0p25'), 'gfs-0p25')).runs).toEqual([]);
    // The lock is free for another replica at once.
    expect(await withAdvisoryLock(holder, lock, async () => 'taken')).toEqual({ value: 'taken' });
  });
});

describe('a serve sync replica whose lock is lost with its session', () => {
  it('ends its pass as failed before its next step, and publishes nothing', async () => {
    for (let s = 2; s <= 12; s++) writeGfsStep(archive, RUN, s);
    let terminated: Promise<unknown> | undefined;
    // Its log says when it stages a step: then PostgreSQL drops the session that holds its lock.
    const log = {
      write(line: string) {
        if (!/ step \d+ h /.test(line)) return;
        terminated ??= Promise.resolve(
          holder.knex.raw(
            `select pg_terminate_backend(pid) from pg_locks
            where locktype = 'advisory' and objid = (hashtext(?)::bigint & 4294967295)::text::oid`,
            ['fieldcast-sync:gfs-0p25'],
          ),
        );
      },
    };
    const lostDir = mkdtempSync(join(tmpdir(), 'sync-lock-lost-'));
    const env = replicaEnv(lostDir);
    const losing = await serveSync(env, createLogger({ level: 'info' }, log), { port: 0 });
    try {
      const [only] = await losing.pass();
      await terminated;
      expect(only?.result).toBeInstanceOf(AdvisoryLockLost);
      expect((await readSourceRegistry(join(syncDirFromEnv(env), 'gfs-0p25'), 'gfs-0p25')).runs).toEqual([]);
    } finally {
      await losing.stop();
      rmSync(lostDir, { recursive: true, force: true });
    }
  });
});
