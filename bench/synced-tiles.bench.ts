/**
 * Tiles of a synced model run (targets in bench/README.md): what a user of real data waits for,
 * the first tile of a frame of a GFS run that `fieldcast sync` wrote (README "Real data";
 * docs/decisions/0250-synced-runs-staged-then-published.md, 0315-synced-sources-as-products.md).
 * Run:
 *   npx -y pnpm@10 exec tsx bench/synced-tiles.bench.ts
 * In a temp dir: a GFS run of the clock's six-hourly cycle before the last, in NOAA's layout on a
 * global grid (gfs-archive.ts), served by the sync tests' local archive and synced by `syncRun` in
 * a process of its own; then, in this process, the weather loaded as the fleet loads it (the sync
 * dir's stores in front of the synthetic world) and the tiles area's renderer made as its
 * definition makes it, with the synced products.
 * 0. Cold tiles: `gfs-0p25.air-temperature` at zooms 0, 2, 5 and native over Iowa, each of a
 *    forecast frame of the run never drawn before, first in this fresh process after the tiles
 *    area's warm-up at start (as tiles.bench.ts), against deflate (node:zlib, level 6) of the tile's
 *    RGBA pixels. Target <= 30, as the synthetic world's cold tiles (issue 31). The synced stores'
 *    chunk caches are emptied before each tile; the files, just written by the sync, are likely
 *    in the page cache, so a tile read from the disk itself takes longer.
 *    Then, reported: zooms 0 and 2 of two analysis hours (the run's first hours, appended to the
 *    source's analysis store, whose chunks hold 720 hours). Each row gives the bytes the process
 *    read while drawing (/proc/self/io rchar: from the page cache or the disk): a window read
 *    loads whole chunks, of the point-series array ([nt, 8, 8] cells: every hour of the run, or of
 *    the analysis' 30 days, for 64 cells) or of its frame copy ([1, 64, 512]: one hour), whichever
 *    holds the window in fewer values (docs/decisions/0505-frame-copies-of-synced-runs.md).
 * 1. Warm: the same tiles drawn again from the warm cache of grid reads, against pngjs encoding the
 *    same pixels. Target <= 2.
 * SYNCED_TILES_BENCH_DEGREES sets the grid (default 0.5: 720 x 361; 0.25 is GFS's own, 1440 x 721,
 * whose sync takes minutes and whose analysis store about 18 GB); SYNCED_TILES_BENCH_STEPS the
 * hourly steps synced (default 25, at least 16).
 */
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serveArchive } from '../packages/sync/test/archive-server.js';
import {
  catalogServed,
  createCatalog,
  forecastFrameId,
  frameId,
  frameIndexOf,
  lonLatToTileXY,
  loadWeatherSource,
  readClimateLattice,
  syncedProductsOf,
  SyntheticSource,
  warmSyntheticWorld,
} from '../packages/weather/src/index.js';
import { TileProducts } from '../services/tiles/src/domain/products.js';
import { tileCache } from '../services/tiles/src/domain/sample-cache.js';
import { DefaultStyles } from '../services/tiles/src/domain/styles.js';
import { TileRenderer } from '../services/tiles/src/domain/tiles.js';
import { SAMPLE_CACHE_BYTES } from '../services/tiles/src/definition.js';
import { globalGrid, syncInChild, writeGfsArchive } from './gfs-archive.js';
import { coldTile, warmTile } from './tile-floors.js';

const HOUR_MS = 3_600_000;
const SIX_HOURS = 6 * HOUR_MS;
const DEGREES = Number(process.env.SYNCED_TILES_BENCH_DEGREES ?? 0.5);
const STEPS = Number(process.env.SYNCED_TILES_BENCH_STEPS ?? 25);
const SOURCE = 'gfs-0p25';
const PRODUCT = `${SOURCE}.air-temperature`;
/** Iowa, inside the global store, as tiles.bench.ts draws it. */
const PLACE = [-93.6, 42.0] as const;

/** Bytes this process has read by read(2) and its kin so far (Linux /proc/self/io rchar), NaN elsewhere. */
function bytesRead(): number {
  try {
    return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

async function main(): Promise<void> {
  // the cold tiles are of steps 12 to 15
  if (!(STEPS >= 16)) throw new Error(`SYNCED_TILES_BENCH_STEPS: at least 16, got ${process.env.SYNCED_TILES_BENCH_STEPS}`);
  const grid = globalGrid(DEGREES);
  const runMs = Math.floor(Date.now() / SIX_HOURS) * SIX_HOURS - SIX_HOURS;
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-synced-tiles-bench-'));
  const syncDir = path.join(tmp, 'data', 'sync');
  try {
    let t0 = performance.now();
    writeGfsArchive(path.join(tmp, 'archive'), runMs, STEPS, grid);
    const written = (performance.now() - t0) / 1000;
    const server = await serveArchive(path.join(tmp, 'archive'));
    let sync;
    try {
      sync = await syncInChild(server.baseUrl, syncDir, runMs, STEPS - 1);
    } finally {
      await server.close();
    }
    console.log(
      `(GFS run ${new Date(runMs).toISOString().slice(0, 13)}Z, steps 0-${STEPS - 1} on a ${DEGREES}° globe, ${grid.ni} x ${grid.nj}: archive written in ${written.toFixed(0)} s; synced in ${sync.seconds.toFixed(0)} s, ${(sync.downloadBytes / 1e6).toFixed(0)} MB fetched, run store ${(sync.storeBytes / 1e6).toFixed(0)} MB)`,
    );

    // The weather as the fleet loads it (packages/fleet start.ts): the sync dir's stores in front of
    // the synthetic world; the renderer as the tiles area's definition makes it.
    const weather = await loadWeatherSource({ syncDir });
    const base = createCatalog();
    const catalog = catalogServed(base, weather);
    const now = () => new Date();
    const frames = frameIndexOf(catalog.products());
    const defaults = new DefaultStyles(catalog, base.products());
    const synced = syncedProductsOf(syncDir, base.products());
    const renderer = new TileRenderer({
      defaults,
      weather,
      frames,
      styles: { get: async () => null, byName: async () => null },
      grants: { isGranted: async () => false },
      cache: tileCache<Float32Array>(SAMPLE_CACHE_BYTES),
      now,
      products: new TileProducts(catalog, defaults, synced, now),
      models: base.models(),
    });
    try {
      // What the tiles area prepares as it starts, before its first request, as tiles.bench.ts does
      // (the area's definition, `warm`): the frame index, practice tiles painted and encoded, the
      // synthetic climate and its compiled reads, the climate lattice's table.
      t0 = performance.now();
      await frames.start(Date.now());
      await renderer.warmDrawing();
      await warmSyntheticWorld(new SyntheticSource());
      await readClimateLattice();
      console.log(`(the tiles area's warm-up at start, in this process: ${(performance.now() - t0).toFixed(0)} ms)\n`);

      const tileAt = (z: number) => {
        const { x, y } = lonLatToTileXY(PLACE[0], PLACE[1], z);
        return { z, x: Math.floor(x), y: Math.floor(y) };
      };
      // each a step of the run after the analysis' hours, none drawn before
      const tiles = [0, 2, 5, renderer.zoomLevels.native].map((z, k) => {
        const validMs = runMs + (12 + k) * HOUR_MS;
        return { tile: tileAt(z), validMs, frameId: forecastFrameId({ name: PRODUCT }, runMs, validMs) };
      });
      // analysis hours, read from the analysis store
      const analysis = [0, 2].map((z, k) => {
        const validMs = runMs + (2 + k) * HOUR_MS;
        return { tile: tileAt(z), validMs, frameId: frameId({ name: PRODUCT }, validMs) };
      });
      let resolveMs = 0;
      const draw = (t: (typeof tiles)[number]) => async () => {
        const r0 = performance.now();
        const resolved = await renderer.resolve({ accountId: 'bench', frameId: t.frameId, tile: t.tile });
        resolveMs = performance.now() - r0;
        if (resolved.frame.product.name !== PRODUCT) throw new Error(`frame of ${resolved.frame.product.name}, not ${PRODUCT}`);
        return renderer.render(resolved);
      };

      console.log(`## Cold tiles of ${PRODUCT}: a frame never drawn before, default style, against deflate of the same RGBA pixels\n`);
      console.log(
        '| zoom | tile | frame | cold render ms | of which resolve ms | its CPU ms | MB read | deflate ms (median) | ratio | target |',
      );
      console.log('|---|---|---|---|---|---|---|---|---|---|');
      for (const [k, t] of [...tiles, ...analysis].entries()) {
        // A store's chunk holds every hour of the run for its cells: without this, a tile would find
        // the chunks the tiles before it read (zoom 0 reads them all), and be cold only in name.
        for (const p of synced.products()) for (const store of [p.analysis?.store, ...p.runs.map((r) => r.store)]) store?.clearCache();
        const read0 = bytesRead();
        let read = 0;
        const { ms, cpuMs, floorMs, ratio } = await coldTile(async () => {
          const png = await draw(t)();
          read = bytesRead() - read0;
          return png;
        });
        const frame = `${k < tiles.length ? 'run' : 'analysis'} +${(t.validMs - runMs) / HOUR_MS} h`;
        const verdict = k < tiles.length ? `<= 30 ${ratio <= 30 ? 'PASS' : 'FAIL'}` : 'reported';
        console.log(
          `| ${t.tile.z} | ${t.tile.x}/${t.tile.y} | ${frame} | ${ms.toFixed(0)} | ${resolveMs.toFixed(0)} | ${cpuMs.toFixed(0)} | ${(read / 1e6).toFixed(1)} | ${floorMs.toFixed(2)} | ${ratio.toFixed(1)} | ${verdict} |`,
        );
      }

      console.log('\n## The same tiles from the warm cache of grid reads, against pngjs encoding the same pixels\n');
      console.log('| zoom | tile | render ms (median) | pngjs encode ms (median) | ratio | target |');
      console.log('|---|---|---|---|---|---|');
      for (const t of tiles) {
        const { ms, floorMs, ratio } = await warmTile(draw(t));
        console.log(
          `| ${t.tile.z} | ${t.tile.x}/${t.tile.y} | ${ms.toFixed(2)} | ${floorMs.toFixed(2)} | ${ratio.toFixed(2)} | <= 2 ${ratio <= 2 ? 'PASS' : 'FAIL'} |`,
        );
      }
    } finally {
      await Promise.all([frames.stop(), synced.close(), (weather as { close?: () => Promise<void> }).close?.()]);
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

await main();
