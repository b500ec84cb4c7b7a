/**
 * Blocks of an array read chunk by chunk: the chunks a [t, i, j] block overlaps, each decoded
 * (by zarrita, through the source's chunk cache) and its part copied into one row-major result.
 */
import { type ArrayReader, copyConverted } from './array-reader.js';
import type { DecodedChunk } from './chunk-cache.js';

/** Index ranges [t0, t1) x [i0, i1) x [j0, j1) of an array. */
export interface Block {
  t0: number;
  t1: number;
  i0: number;
  i1: number;
  j0: number;
  j1: number;
}

/**
 * Values in the chunks of a [time, lat, lon] array that a block overlaps, edge chunks padded to
 * the whole chunk shape (zarr-specs v2 "Chunk encoding"): what reading the block loads.
 */
export function chunkValuesOver(r: ArrayReader, block: Block): number {
  const [ct, ci, cj] = r.array.chunks as [number, number, number];
  const span = (a: number, b: number, c: number) => Math.max(0, Math.ceil(b / c) - Math.floor(a / c)) * c;
  return span(block.t0, block.t1, ct) * span(block.i0, block.i1, ci) * span(block.j0, block.j1, cj);
}

/**
 * Values of the block as float32 in contract units, row-major. Static [lat, lon] arrays ignore
 * the time range and give one step. `chunkOf` loads a chunk by its grid coordinates.
 */
export async function readBlock(r: ArrayReader, chunkOf: (coords: number[]) => Promise<DecodedChunk>, block: Block): Promise<Float32Array> {
  let { t0, t1 } = block;
  const { i0, i1, j0, j1 } = block;
  const is3d = r.array.shape.length === 3;
  if (!is3d) {
    t0 = 0;
    t1 = 1;
  }
  const nt = t1 - t0;
  const ni = i1 - i0;
  const nj = j1 - j0;
  const out = new Float32Array(Math.max(0, nt * ni * nj));
  if (out.length === 0) return out;
  const cs = r.array.chunks;
  const [ct, ci, cj] = is3d ? [cs[0]!, cs[1]!, cs[2]!] : [1, cs[0]!, cs[1]!];
  const jobs: Array<Promise<void>> = [];
  for (let kt = Math.floor(t0 / ct); kt * ct < t1; kt++) {
    for (let ki = Math.floor(i0 / ci); ki * ci < i1; ki++) {
      for (let kj = Math.floor(j0 / cj); kj * cj < j1; kj++) {
        const coords = is3d ? [kt, ki, kj] : [ki, kj];
        jobs.push(
          chunkOf(coords).then((c) => {
            const ta = Math.max(t0, kt * ct),
              tb = Math.min(t1, (kt + 1) * ct);
            const ia = Math.max(i0, ki * ci),
              ib = Math.min(i1, (ki + 1) * ci);
            const ja = Math.max(j0, kj * cj),
              jb = Math.min(j1, (kj + 1) * cj);
            const [st, si, sj] = is3d ? [c.stride[0]!, c.stride[1]!, c.stride[2]!] : [0, c.stride[0]!, c.stride[1]!];
            copyConverted(r, c.data, out, {
              nt: tb - ta,
              ni: ib - ia,
              nj: jb - ja,
              src: (ta - kt * ct) * st + (ia - ki * ci) * si + (ja - kj * cj) * sj,
              st,
              si,
              sj,
              dst: ((ta - t0) * ni + (ia - i0)) * nj + (ja - j0),
              dt: ni * nj,
              di: nj,
            });
          }),
        );
      }
    }
  }
  await Promise.all(jobs);
  return out;
}
