/**
 * Chunk files written in place (zarr-specs v2 "Chunk encoding": an uncompressed chunk is its
 * elements, edge chunks padded to the whole chunk shape), and the frame copies the sync writes
 * beside a store's arrays (docs/decisions/0505-frame-copies-of-synced-runs.md).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * A chunk file opened for writing in place; a new one is made whole at once (a sparse file of the
 * chunk's length, so nothing is written for parts to come). Whatever lies past an array's
 * declared length is never read, and every part up to it is written.
 */
export async function openChunk(file: string, bytes: number): Promise<fs.FileHandle> {
  try {
    return await fs.open(file, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.open(file, 'wx+');
  await handle.truncate(bytes);
  return handle;
}

/** A C-ordered block [times, rows, columns] of an array, its rows [r0, r1) and columns [c0, c1). */
interface BlockValues {
  data: Float32Array;
  times: number;
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

/** Chunk files written side by side, few enough at once to stay clear of the open files' limit. */
const FILES_AT_ONCE = 64;

/**
 * Writes a block's values into the frame copy at `dir` (chunks [1, rows, columns], C order, one
 * file a step and chunk, layout.ts frameChunks): each step's rows of the block, as one contiguous
 * write where the block spans a chunk's columns (every column of a run's 8-row band, run-store.ts),
 * else row by row. The block's rows lie in one row of chunks.
 */
export async function writeFrames(dir: string, chunks: readonly number[], nLon: number, b: BlockValues): Promise<void> {
  const [, fr, fc] = chunks as [number, number, number];
  const nr = b.r1 - b.r0;
  const nc = b.c1 - b.c0;
  const ri = Math.floor(b.r0 / fr);
  if (Math.floor((b.r1 - 1) / fr) !== ri) throw new Error(`rows ${b.r0}-${b.r1} cross a frame chunk's edge (${fr} rows)`);
  const writes: Array<() => Promise<void>> = [];
  for (let t = 0; t < b.times; t++)
    for (let kc = Math.floor(b.c0 / fc); kc * fc < b.c1; kc++) {
      const ca = Math.max(b.c0, kc * fc);
      const cb = Math.min(b.c1, (kc + 1) * fc);
      const whole = ca === kc * fc && (cb === (kc + 1) * fc || cb === nLon);
      writes.push(async () => {
        const handle = await openChunk(path.join(dir, `${t}.${ri}.${kc}`), fr * fc * 4);
        try {
          const row = (r: number) => b.data.subarray((t * nr + r) * nc + (ca - b.c0), (t * nr + r) * nc + (cb - b.c0));
          if (whole) {
            // The chunk's full rows, its padding past the array's last column NaN.
            const part = new Float32Array(nr * fc).fill(NaN);
            for (let r = 0; r < nr; r++) part.set(row(r), r * fc);
            await handle.write(new Uint8Array(part.buffer), 0, part.byteLength, (b.r0 - ri * fr) * fc * 4);
          } else
            for (let r = 0; r < nr; r++) {
              const values = row(r).slice();
              await handle.write(new Uint8Array(values.buffer), 0, values.byteLength, ((b.r0 + r - ri * fr) * fc + (ca - kc * fc)) * 4);
            }
        } finally {
          await handle.close();
        }
      });
    }
  for (let k = 0; k < writes.length; k += FILES_AT_ONCE) await Promise.all(writes.slice(k, k + FILES_AT_ONCE).map((w) => w()));
}
