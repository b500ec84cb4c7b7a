import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArchiveServer, serveArchive } from '../../sync/test/archive-server.js';
import { writeGfsStep } from '../../sync/test/runs.js';
import { pollSource } from '../src/sync.js';
import { SyncPasses } from '../src/sync-passes.js';

/*
 * A poller (FIELDCAST_SYNC_SOURCES in the embedded fleet) outlives any failed pass: the next pass
 * runs on schedule, each failure counted, even one that is not the upstream's (a full disk, a
 * directory that cannot be made).
 */
const HOUR = 3_600_000;
const RUN = Math.floor(Date.now() / (6 * HOUR)) * 6 * HOUR - 6 * HOUR;
let archive: string;
let dir: string;
let server: ArchiveServer;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'fieldcast-poller-archive-'));
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-poller-'));
  writeGfsStep(archive, RUN, 0);
  server = await serveArchive(archive);
});
afterAll(async () => {
  await server.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

test('a pass that fails for a reason of its own is counted and the poller goes on', async () => {
  // the sync directory is a file: staging a step fails with ENOTDIR, not a SyncError
  const syncDir = join(dir, 'sync');
  writeFileSync(syncDir, 'not a directory');
  const passes = new SyncPasses();
  const failures: string[] = [];
  const abort = new AbortController();
  const polling = pollSource({ source: 'gfs-0p25', baseUrl: server.baseUrl, syncDir }, 5, () => {}, abort.signal, {
    passes,
    failed: (line) => {
      failures.push(line);
      if (failures.length === 3) abort.abort();
    },
  });
  await expect(polling).resolves.toBeUndefined();
  expect(failures).toHaveLength(3);
  expect(failures[0]).toMatch(/^gfs-0p25: sync failed: .*ENOTDIR/);
  expect(passes.text()).toContain('fieldcast_sync_passes_total{source="gfs-0p25",outcome="failed"} 3');
});

test('a poller stopped while its upstream does not answer ends within a second, reporting no failure', async () => {
  // a fleet's SIGTERM stops its pollers: a pass waiting out fetch's timeout and retries would hold the exit for minutes
  server.inject('.idx', { hang: true }, 1_000);
  const seen = server.log.length;
  const passes = new SyncPasses();
  const failures: string[] = [];
  const abort = new AbortController();
  const polling = pollSource(
    { source: 'gfs-0p25', baseUrl: server.baseUrl, syncDir: join(dir, 'stopped') },
    60_000,
    () => {},
    abort.signal,
    {
      passes,
      failed: (line) => failures.push(line),
    },
  );
  while (server.log.length === seen) await new Promise((resolve) => setTimeout(resolve, 10));
  const stopped = Date.now();
  abort.abort();
  await polling;
  expect(Date.now() - stopped).toBeLessThan(1_000);
  expect(failures).toEqual([]);
  expect(passes.text()).not.toContain('outcome="failed"');
});
