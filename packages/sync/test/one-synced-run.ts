/**
 * A GFS run synced from a local stand-in archive into a data dir of its own, and the weather that
 * serves the sync dir: the start of the areas' tests of a synced run
 * (docs/decisions/0363-synced-runs-expire-on-the-clock.md,
 * docs/decisions/0379-time-cells-of-mean-rates.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GridSource, loadWeatherSource } from '@fieldcast/weather';
import { syncRun } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import type { GridSpec } from '../../grib2/test/encode.js';
import { writeGfsStep } from './runs.js';

const HOUR_MS = 3_600_000;

export interface OneSyncedRun {
  syncDir: string;
  server: ArchiveServer;
  /** the weather serving the sync dir, reloaded by hand only (reloadMs one hour) */
  weather: GridSource;
  close(): Promise<void>;
}

export interface SyncedRunOptions {
  /** the steps (hours) the archive holds; 0 and 1 unless given */
  archived?: readonly number[];
  /** the steps synced, as `fieldcast sync --steps` takes them; the first to the last archived unless given */
  steps?: string;
  /** FIELDCAST_SYNC_KEEP_DAYS (400 unless given) */
  keepDays?: number;
  /** when the run is synced and published: 4 h after its start unless given */
  syncedAtMs?: number;
  /** the weather's clock */
  now?: () => number;
  /** false: no synthetic world behind the run, every value read is the run's */
  synthetic?: boolean;
  /** the grid the archive's files are on: runs.ts GFS_GRID unless given */
  grid?: GridSpec;
}

/** `runMs` synced and published, served by a weather of its own. */
export async function oneSyncedRun(runMs: number, options: SyncedRunOptions = {}): Promise<OneSyncedRun> {
  const archived = options.archived ?? [0, 1];
  const archive = mkdtempSync(join(tmpdir(), 'one-synced-run-archive-'));
  const data = mkdtempSync(join(tmpdir(), 'one-synced-run-data-'));
  for (const s of archived) writeGfsStep(archive, runMs, s, options.grid);
  const server = await serveArchive(archive);
  const syncDir = join(data, 'sync');
  const published = await syncRun({
    source: 'gfs-0p25',
    baseUrl: server.baseUrl,
    syncDir,
    runMs,
    steps: options.steps ?? `${archived[0]}-${archived.at(-1)}`,
    keepDays: options.keepDays ?? 400,
    now: () => options.syncedAtMs ?? runMs + 4 * HOUR_MS,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
  });
  if (published.state !== 'published') throw new Error(`the run was not published: ${JSON.stringify(published)}`);
  const weather = await loadWeatherSource({
    syncDir,
    reloadMs: HOUR_MS,
    ...(options.now ? { now: options.now } : {}),
    ...(options.synthetic === false ? { synthetic: false } : {}),
  });
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
