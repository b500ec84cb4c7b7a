/**
 * A GFS run in NOAA's layout on a global grid, served from a local archive and synced by
 * `syncRun` in a process of its own (sync.bench.ts, synced-tiles.bench.ts;
 * docs/decisions/0250-synced-runs-staged-then-published.md). The archive's fields are
 * packages/sync/test/runs.ts's `globalWeather`, which stays within what weather reaches everywhere
 * on the globe, as a sync demands.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { GridSpec } from '../packages/grib2/test/encode.js';
import { globalWeather, writeGfsStep } from '../packages/sync/test/runs.js';

const here = fileURLToPath(import.meta.url);

/** A global grid of `degrees` as GFS writes it: from 90 N and 0 E, north to south, 0 to 360 - degrees. */
export const globalGrid = (degrees: number): GridSpec => ({
  ni: Math.round(360 / degrees),
  nj: Math.round(180 / degrees) + 1,
  lat1: 90,
  lon1: 0,
  dLat: degrees,
  dLon: degrees,
});

/** Writes steps 0 .. steps - 1 of the run `runMs` under `root`. */
export function writeGfsArchive(root: string, runMs: number, steps: number, grid: GridSpec): void {
  for (let s = 0; s < steps; s++) writeGfsStep(root, runMs, s, grid, globalWeather);
}

export interface SyncMeasured {
  maxRssBytes: number;
  seconds: number;
  downloadBytes: number;
  storeBytes: number;
}

/** Child: syncs steps 0..last of the run and reports. */
async function child(baseUrl: string, syncDir: string, runMs: number, last: number): Promise<void> {
  const { syncRun } = await import('../packages/sync/src/index.js');
  const t0 = performance.now();
  const r = await syncRun({ source: 'gfs-0p25', baseUrl, syncDir, runMs, steps: `0-${last}` });
  if (r.state !== 'published') throw new Error(`not published: ${r.state}`);
  const out: SyncMeasured = {
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    seconds: (performance.now() - t0) / 1000,
    downloadBytes: r.downloadBytes,
    storeBytes: r.storeBytes,
  };
  process.stdout.write(JSON.stringify(out));
}

/**
 * Syncs steps 0..last of the run `runMs` from `baseUrl` into `syncDir` in a process of its own, so
 * its peak memory is its own and it leaves nothing warm in this one; asynchronously, as this
 * process serves the archive.
 */
export async function syncInChild(baseUrl: string, syncDir: string, runMs: number, last: number): Promise<SyncMeasured> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', here, 'child', baseUrl, syncDir, String(runMs), String(last)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as SyncMeasured;
}

if (process.argv[1] === here && process.argv[2] === 'child') {
  await child(process.argv[3]!, process.argv[4]!, Number(process.argv[5]), Number(process.argv[6]));
}
