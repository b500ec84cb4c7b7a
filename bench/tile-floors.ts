/**
 * The tile benches' timings and floors (tiles.bench.ts, synced-tiles.bench.ts; targets in
 * bench/README.md): a cold tile against deflate (node:zlib, level 6) of its RGBA pixels, and a
 * warm one against pngjs encoding the same 256 x 256 pixels.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { decodePng } from '../services/tiles/test/png-decode.js';

// pngjs is a development tool of the geography package (docs/data-sources.md), used here only as the floor.
interface PngJs {
  PNG: { new (options: { width: number; height: number }): { data: Buffer }; sync: { write(png: { data: Buffer }): Buffer } };
}
const { PNG } = createRequire(join(process.cwd(), 'packages/geography/package.json'))('pngjs') as PngJs;

/** Median milliseconds of `fn` over `n` runs. */
export async function median(n: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)]!;
}

export interface ColdTile {
  /** the tile's PNG */
  png: Buffer;
  /** wall time of the draw, ms */
  ms: number;
  /**
   * the process's CPU time over the draw, ms: on a loaded machine a draw of a few hundred
   * milliseconds is preempted for longer than the floor's short deflates are
   */
  cpuMs: number;
  /** deflate (level 6) of the tile's RGBA pixels, median ms */
  floorMs: number;
  ratio: number;
}

/** One cold draw, timed with the process's CPU beside it, then the deflate floor of its pixels. */
export async function coldTile(draw: () => Promise<Buffer>): Promise<ColdTile> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const png = await draw();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const rgba = Buffer.from(decodePng(png).rgba);
  const floorMs = await median(25, () => deflateSync(rgba, { level: 6 }));
  return { png, ms, cpuMs: (cpu.user + cpu.system) / 1000, floorMs, ratio: ms / floorMs };
}

export interface WarmTile {
  /** the draw, median ms */
  ms: number;
  /** pngjs encoding the same pixels, median ms */
  floorMs: number;
  ratio: number;
}

/** The median of 25 draws of a tile after a first one (which fills the caches it reads), against pngjs encoding its pixels. */
export async function warmTile(draw: () => Promise<Buffer>): Promise<WarmTile> {
  const rgba = Buffer.from(decodePng(await draw()).rgba);
  const image = new PNG({ width: 256, height: 256 });
  rgba.copy(image.data);
  const ms = await median(25, draw);
  const floorMs = await median(25, () => PNG.sync.write(image));
  return { ms, floorMs, ratio: ms / floorMs };
}
