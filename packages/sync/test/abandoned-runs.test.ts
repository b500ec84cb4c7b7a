/**
 * A run still being staged when a newer one is published is given up
 * (docs/decisions/0255-synced-runs-as-models.md): its other steps would never come, since a poller
 * syncs the newest run. It is remembered as expired and unpublished, and its staged steps are
 * removed (a real step is tens of MB).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSourceRegistry } from '@fieldcast/weather';
import { readSyncedModels, syncRun } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const RUN_A = Date.UTC(2026, 11, 3, 0);
const RUN_B = RUN_A + 6 * HOUR;
let archive: string;
let data: string;
let server: ArchiveServer;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'sync-abandoned-archive-'));
  data = mkdtempSync(join(tmpdir(), 'sync-abandoned-'));
  // A's last steps never appear; B is published whole
  for (const s of [0, 1]) writeGfsStep(archive, RUN_A, s);
  for (const s of [0, 1, 2, 3]) writeGfsStep(archive, RUN_B, s);
  server = await serveArchive(archive);
});
afterAll(async () => {
  await server.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const sync = (runMs: number) =>
  syncRun({
    source: 'gfs-0p25',
    baseUrl: server.baseUrl,
    syncDir: join(data, 'sync'),
    runMs,
    steps: '0-3',
    partial: true,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
    now: () => runMs + 4 * HOUR,
  });

test('an older run being staged is given up when a newer one is published: expired, never complete, its steps removed', async () => {
  expect(await sync(RUN_A)).toMatchObject({ state: 'pending', staged: 2, of: 4 });
  const stagingA = join(data, 'sync', 'gfs-0p25', 'staging', '2026120300');
  expect(existsSync(stagingA)).toBe(true);
  expect((await readSyncedModels(join(data, 'sync')))[0]!.runs.map((r) => [r.initMs, r.status])).toEqual([[RUN_A, 'INCOMPLETE']]);

  expect(await sync(RUN_B)).toMatchObject({ state: 'published' });
  expect(existsSync(stagingA)).toBe(false);
  const registry = await readSourceRegistry(join(data, 'sync', 'gfs-0p25'), 'gfs-0p25');
  expect(registry.expired).toEqual([
    {
      run: new Date(RUN_A).toISOString(),
      steps: [0, 1],
      createdAt: expect.any(String),
      at: new Date(RUN_B + 4 * HOUR).toISOString(),
      abandoned: true,
    },
  ]);
  const [model] = await readSyncedModels(join(data, 'sync'));
  expect(model!.runs.map((r) => [r.initMs, r.status, r.abandoned ?? false])).toEqual([
    [RUN_B, 'COMPLETE', false],
    [RUN_A, 'EXPIRED', true],
  ]);
});
