/**
 * `fieldcast sync` of one GFS run from a local archive (docs/decisions/0250-synced-runs-staged-then-published.md):
 * seconds, MB/s of GRIB2 fetched and decoded into the run's store, and peak resident memory, for
 * two run lengths. Figures are ratios in one run: throughput against a plain download of the same
 * files from the same server (fetch, bytes discarded), memory as the sync's peak RSS above a
 * process that syncs a single step. Memory must not grow with the run's length: steps are staged
 * one at a time and the store written in bands (writeRunStore).
 *
 *   npx -y pnpm@10 exec tsx bench/sync.bench.ts
 *
 * Archive: GFS layout (packages/sync/test/runs.ts: temperature, dewpoint, 10 m wind, surface
 * pressure, shortwave, precipitation, Tmax/Tmin and two messages not needed, of its `globalWeather`)
 * on a 1° global grid (360 x 181), hourly steps (gfs-archive.ts). Environment: SYNC_BENCH_STEPS=25,49
 * sets the run lengths.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serveArchive } from '../packages/sync/test/archive-server.js';
import { gfsPath } from '../packages/sync/test/runs.js';
import { globalGrid, syncInChild, writeGfsArchive } from './gfs-archive.js';

const RUN = Date.UTC(2026, 11, 3, 0);
const GRID = globalGrid(1);
const MiB = 2 ** 20;

const measure = (baseUrl: string, syncDir: string, last: number) => syncInChild(baseUrl, syncDir, RUN, last);

/** Seconds to download every file of steps 0..last (GRIB2 and inventory), bytes discarded. */
async function download(baseUrl: string, last: number): Promise<number> {
  const t0 = performance.now();
  for (let s = 0; s <= last; s++)
    for (const p of [gfsPath(RUN, s), `${gfsPath(RUN, s)}.idx`]) await (await fetch(`${baseUrl}/${p}`)).arrayBuffer();
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  const lengths = (process.env.SYNC_BENCH_STEPS ?? '25,49').split(',').map(Number);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-sync-bench-'));
  const archive = path.join(tmp, 'archive');
  try {
    const longest = Math.max(...lengths);
    writeGfsArchive(archive, RUN, longest, GRID);
    const server = await serveArchive(archive);
    try {
      const fresh = async () => {
        const dir = await fs.mkdtemp(path.join(tmp, 'sync-'));
        return path.join(dir, 'sync');
      };
      const baseline = (await measure(server.baseUrl, await fresh(), 0)).maxRssBytes;
      console.log(`baseline: peak RSS of syncing one step of ${GRID.ni} x ${GRID.nj}: ${(baseline / MiB).toFixed(0)} MiB`);
      console.log('| run | fetched | sync s | sync MB/s | / plain download | store | peak RSS - baseline |');
      console.log('|---|---|---|---|---|---|---|');
      for (const steps of lengths) {
        const plain = await download(server.baseUrl, steps - 1);
        const m = await measure(server.baseUrl, await fresh(), steps - 1);
        const mbs = m.downloadBytes / 1e6 / m.seconds;
        const plainMbs = m.downloadBytes / 1e6 / plain;
        console.log(
          `| ${steps} hourly steps x ${GRID.ni} x ${GRID.nj} | ${(m.downloadBytes / 1e6).toFixed(1)} MB | ${m.seconds.toFixed(2)} | ${mbs.toFixed(2)} | ${(mbs / plainMbs).toFixed(3)} | ${(m.storeBytes / 1e6).toFixed(1)} MB | ${((m.maxRssBytes - baseline) / MiB).toFixed(0)} MiB |`,
        );
      }
    } finally {
      await server.close();
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

await main();
