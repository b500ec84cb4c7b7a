/**
 * Tiles (targets in bench/README.md). Run:
 *   NODE_OPTIONS=--expose-gc npx -y pnpm@10 exec tsx bench/tiles.bench.ts
 * Starts the tiles app in this process (PGlite, in-process bus, the SyntheticSource) on an
 * ephemeral port. In one run:
 * 0. Cold tiles: zooms 0, 2, 5 and native, each of a frame never drawn before, rendered first in
 *    this fresh process after what the tiles area prepares as it starts (frame index, practice
 *    tiles, synthetic climate and its compiled reads), against deflate (node:zlib, level 6) of the tile's RGBA pixels. Target <= 30.
 * 1. Rendering: one tile per zoom from 0 to the native zoom over North America, each drawn with the
 *    product's default style from a warm cache of grid reads (what is timed is colouring and PNG
 *    encoding), against pngjs encoding the same 256 x 256 RGBA pixels (the floor). Target <= 2.
 * 2. HTTP throughput of a warm tile against /healthz measured just before. Target >= 0.25.
 * 3. A product's style list with 100 contributed styles of the caller against /healthz. Target >= 0.50.
 * 4. Memory: the heap after 200 concurrent requests for 200 different tiles, after garbage
 *    collection, against the heap before and the bound of the grid-read cache.
 * BENCH_SECONDS sets the duration of each HTTP measurement (default 5).
 */
import type { AddressInfo } from 'node:net';
import { FleetEnv, limitsFromEnv, parseEnv } from '../packages/runtime/src/index.js';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import {
  createCatalog,
  forecastBoundaryMs,
  FrameIndex,
  frameId,
  lonLatToTileXY,
  readClimateLattice,
  SyntheticSource,
  warmSyntheticWorld,
} from '../packages/weather/src/index.js';
import { DefaultStyles } from '../services/tiles/src/domain/styles.js';
import { tileCache } from '../services/tiles/src/domain/sample-cache.js';
import { TileRenderer } from '../services/tiles/src/domain/tiles.js';
import { SAMPLE_CACHE_BYTES, tilesService } from '../services/tiles/src/definition.js';
import { requestsPerSecond } from './autocannon.js';
import { coldTile, warmTile } from './tile-floors.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;

const rate = (url: string, auth?: string) =>
  requestsPerSecond(url, { seconds: DURATION_S, connections: CONNECTIONS, timeoutSeconds: 60, headers: { Authorization: auth } });

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  const weather = new SyntheticSource();
  const catalog = createCatalog();
  const product = catalog.product('air-temperature')!;
  const validMs = forecastBoundaryMs(Date.now()) - 24 * 3_600_000;
  const frame = frameId(product, validMs);
  const now = () => new Date();
  const none = { get: async () => null, byName: async () => null };
  const noGrants = { isGranted: async () => false };
  const frames = new FrameIndex(catalog.products());
  const renderer = new TileRenderer({
    defaults: new DefaultStyles(catalog),
    weather,
    frames,
    styles: none,
    grants: noGrants,
    cache: tileCache<Float32Array>(SAMPLE_CACHE_BYTES),
    now,
  });

  // First, in this fresh process: tiles of frames never drawn before. Warm is only what the tiles
  // area prepares as it starts, before its first request (its definition's `warm`): the frame index
  // and the synthetic climate (the lattice's file, written once per machine: docs/decisions/0089-climate-lattice-file.md)
  // with its reads compiled by a few small ones (0305), on another source than the renderer's, as the area does,
  // then the lattice's rows read into the table the process shares with its threads (0330); and
  // practice tiles painted and encoded (0355).
  const warming = performance.now();
  await frames.start(Date.now());
  await renderer.warmDrawing();
  await warmSyntheticWorld(new SyntheticSource());
  const reading = performance.now();
  const rows = await readClimateLattice();
  const warmed = performance.now();
  console.log(
    `(the tiles area's warm-up at start, in this process: ${(warmed - warming).toFixed(0)} ms, of which ${rows} rows of the climate lattice read into its table ${(warmed - reading).toFixed(0)} ms)\n`,
  );
  console.log('## Cold tiles: a frame never drawn before, default style, against deflate of the same RGBA pixels\n');
  // The process's CPU time over the render beside its wall time: on a loaded machine a render of a
  // few hundred milliseconds is preempted for longer than the floor's short deflates are.
  console.log('| zoom | tile | cold render ms | its CPU ms | deflate ms (median) | ratio | target |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [k, z] of [0, 2, 5, renderer.zoomLevels.native].entries()) {
    const { x, y } = lonLatToTileXY(-93.6, 42.0, z);
    const tile = { z, x: Math.floor(x), y: Math.floor(y) };
    const coldFrame = frameId(product, validMs - (k + 1) * 3_600_000);
    const { ms, cpuMs, floorMs, ratio } = await coldTile(async () =>
      renderer.render(await renderer.resolve({ accountId: 'bench', frameId: coldFrame, tile })),
    );
    console.log(
      `| ${z} | ${tile.x}/${tile.y} | ${ms.toFixed(0)} | ${cpuMs.toFixed(0)} | ${floorMs.toFixed(2)} | ${ratio.toFixed(1)} | <= 30 ${ratio <= 30 ? 'PASS' : 'FAIL'} |`,
    );
  }

  console.log('\n## Rendering from a warm cache of grid reads, against pngjs encoding the same pixels\n');
  console.log('| zoom | tile | render ms (median) | pngjs encode ms (median) | ratio | target |');
  console.log('|---|---|---|---|---|---|');
  for (let z = 0; z <= renderer.zoomLevels.native; z++) {
    const { x, y } = lonLatToTileXY(-93.6, 42.0, z);
    const tile = { z, x: Math.floor(x), y: Math.floor(y) };
    // the first draw warms the cache of grid reads
    const { ms, floorMs, ratio } = await warmTile(async () =>
      renderer.render(await renderer.resolve({ accountId: 'bench', frameId: frame, tile })),
    );
    console.log(
      `| ${z} | ${tile.x}/${tile.y} | ${ms.toFixed(2)} | ${floorMs.toFixed(2)} | ${ratio.toFixed(2)} | <= 2 ${ratio <= 2 ? 'PASS' : 'FAIL'} |`,
    );
  }

  const limits = limitsFromEnv(parseEnv(FleetEnv, { RATE_LIMIT_PER_SECOND: '0', HEAVY_REQUESTS_PER_ACCOUNT: '0', ...process.env }));
  const fleet = await startTestFleet([tilesService], { weather, limits });
  const server = fleet.app('tiles').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  try {
    console.log('\n## HTTP, ratios to /healthz measured just before\n');
    const { x, y } = lonLatToTileXY(-93.6, 42.0, 6);
    const tilePath = `/v2/frames/${frame}/tile/6/${Math.floor(x)}/${Math.floor(y)}.png`;
    const warm = await fetch(`${base}${tilePath}`, { headers: { Authorization: account.auth } });
    if (warm.status !== 200) throw new Error(`tile: ${warm.status} ${await warm.text()}`);
    await warm.arrayBuffer();
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${base}/v2/products/air-temperature/styles`, {
        method: 'POST',
        headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: `bench style ${i}`,
          description: 'bench',
          layerName: 'air_temperature',
          colorizers: [
            {
              defaultColor: '#000000',
              defaultMode: 'linear',
              stops: [
                { value: i, color: '#ff0000' },
                { value: i + 10, color: '#0000ff' },
              ],
            },
          ],
        }),
      });
      if (res.status !== 201) throw new Error(`style ${i}: ${res.status} ${await res.text()}`);
    }
    console.log('| request | req/s | /healthz req/s | ratio | target |');
    console.log('|---|---|---|---|---|');
    for (const [label, path, target] of [
      ['tile, zoom 6, warm cache of grid reads', tilePath, 0.25],
      ['styles.json, 1 default + 100 contributed styles', '/v2/products/air-temperature/styles.json', 0.5],
    ] as const) {
      const health = await rate(`${base}/healthz`);
      const rps = await rate(`${base}${path}`, account.auth);
      const ratio = rps / health;
      console.log(
        `| ${label} | ${rps.toFixed(0)} | ${health.toFixed(0)} | ${ratio.toFixed(3)} | >= ${target} ${ratio >= target ? 'PASS' : 'FAIL'} |`,
      );
    }

    console.log('\n## Memory: 200 concurrent requests for 200 different tiles (zoom 9)\n');
    if (!gc) console.log('(run with NODE_OPTIONS=--expose-gc for heap figures after collection)');
    gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
    const origin = lonLatToTileXY(-93.6, 42.0, 9);
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, k) => {
        const path = `/v2/frames/${frame}/tile/9/${Math.floor(origin.x) + (k % 20)}/${Math.floor(origin.y) + Math.floor(k / 20)}.png`;
        const res = await fetch(`${base}${path}`, { headers: { Authorization: account.auth } });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    gc?.();
    const after = process.memoryUsage().heapUsed;
    const mb = (b: number) => (b / 1048576).toFixed(1);
    console.log(`statuses: ${[...new Set(statuses)].join(', ')}; ${seconds.toFixed(1)} s`);
    console.log(
      `heap before ${mb(before)} MB, peak ${mb(peak)} MB, after ${mb(after)} MB: growth ${mb(after - before)} MB, peak growth ${mb(peak - before)} MB; cache bound ${mb(SAMPLE_CACHE_BYTES)} MB (200 tiles of one variable: ${mb(200 * 256 * 256 * 4)} MB)`,
    );
  } finally {
    server.close();
    await fleet.close();
  }
}

await main();
