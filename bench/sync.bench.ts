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
 * pressure, shortwave, precipitation, Tmax/Tmin and two messages not needed) on a 1° global grid
 * (360 x 181), hourly steps. Environment: SYNC_BENCH_STEPS=25,49 sets the run lengths.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveArchive } from '../packages/sync/test/archive-server.js';
import { gfsPath, writeGfsStep } from '../packages/sync/test/runs.js';

const here = fileURLToPath(import.meta.url);
const RUN = Date.UTC(2026, 11, 3, 0);
const GRID = { ni: 360, nj: 181, lat1: 90, lon1: 0, dLat: 1, dLon: 1 };
const MiB = 2 ** 20;

interface Measured {
  maxRssBytes: number;
  seconds: number;
  downloadBytes: number;
  storeBytes: number;
}

/** Child: sync steps 0..last and report. */
async function child(baseUrl: string, syncDir: string, last: number): Promise<void> {
  const { syncRun } = await import('../packages/sync/src/index.js');
  const t0 = performance.now();
  const r = await syncRun({ source: 'gfs-0p25', baseUrl, syncDir, runMs: RUN, steps: `0-${last}` });
  if (r.state !== 'published') throw new Error(`not published: ${r.state}`);
  const out: Measured = {
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    seconds: (performance.now() - t0) / 1000,
    downloadBytes: r.downloadBytes,
    storeBytes: r.storeBytes,
  };
  process.stdout.write(JSON.stringify(out));
}

/** The sync in a process of its own, so its peak memory is its own; asynchronously, as this process serves the archive. */
async function measure(baseUrl: string, syncDir: string, last: number): Promise<Measured> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', here, 'child', baseUrl, syncDir, String(last)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as Measured;
}

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
    for (let s = 0; s < longest; s++) writeGfsStep(archive, RUN, s, GRID);
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

if (process.argv[2] === 'child') {
  await child(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
} else {
  await main();
}
