/**
 * One GFS run of two steps (0 and 1 h) synced from a local stand-in archive into a data dir of its
 * own, and the weather that serves the sync dir: the start of the areas' tests of a synced run's
 * life (docs/decisions/0363-synced-runs-expire-on-the-clock.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GridSource, loadWeatherSource } from '@fieldcast/weather';
import { syncRun } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import { writeGfsStep } from './runs.js';

export interface OneSyncedRun {
  syncDir: string;
  server: ArchiveServer;
  /** the weather serving the sync dir, reloaded by hand only (reloadMs one hour) */
  weather: GridSource;
  close(): Promise<void>;
}

/** `runMs` synced with FIELDCAST_SYNC_KEEP_DAYS `keepDays`, published 4 h after its start; `now` is the weather's clock. */
export async function oneSyncedRun(runMs: number, keepDays: number, now?: () => number): Promise<OneSyncedRun> {
  const archive = mkdtempSync(join(tmpdir(), 'one-synced-run-archive-'));
  const data = mkdtempSync(join(tmpdir(), 'one-synced-run-data-'));
  for (const s of [0, 1]) writeGfsStep(archive, runMs, s);
  const server = await serveArchive(archive);
  const syncDir = join(data, 'sync');
  const published = await syncRun({
    source: 'gfs-0p25',
    baseUrl: server.baseUrl,
    syncDir,
    runMs,
    steps: '0-1',
    keepDays,
    now: () => runMs + 4 * 3_600_000,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
  });
  if (published.state !== 'published') throw new Error(`the run was not published: ${JSON.stringify(published)}`);
  const weather = await loadWeatherSource({ syncDir, reloadMs: 3_600_000, ...(now ? { now } : {}) });
  return {
    syncDir,
    server,
    weather,
    close: async () => {
      await (weather as { close?: () => Promise<void> }).close?.();
      await server.close();
      rmSync(archive, { recursive: true, force: true });
      rmSync(data, { recursive: true, force: true });
    },
  };
}
