/**
 * How ingest cuts an array into slabs: blocks of whole Zarr chunks, each at most `budget`
 * values (never less than one chunk), so a slab is read from the source, reoriented and handed
 * to the writer without ever holding the whole variable (docs/decisions/0016-ingest.md).
 *
 * Whole chunks: the writer then fills every chunk it touches in one go and never reads a chunk
 * back to merge a partial write (zarr-specs v2, chunks are stored whole).
 *
 * Shape of a slab: the trailing axes are taken whole first (for a [time, lat, lon] array, full
 * rows of longitude, then bands of latitude, then time chunks), because source files store
 * the trailing axes contiguously (NetCDF and GeoTIFF rows), so wide slabs mean fewer, longer
 * reads from the source.
 */

export interface Slab {
  /** first index on every axis */
  start: number[];
  /** extent on every axis (clipped to the array at its ends) */
  shape: number[];
}

/** Chunks per slab along each axis: whole trailing axes first, within `budget` values. */
export function slabChunks(shape: readonly number[], chunks: readonly number[], budget: number): number[] {
  if (shape.length !== chunks.length) throw new Error('shape and chunks differ in rank');
  const counts = shape.map((n, d) => Math.max(1, Math.ceil(n / chunks[d]!)));
  const k = shape.map(() => 1);
  const extent = (d: number, kd: number) => Math.min(kd * chunks[d]!, Math.max(shape[d]!, 1));
  let values = shape.reduce((a, _, d) => a * extent(d, 1), 1);
  for (let d = shape.length - 1; d >= 0; d--) {
    const one = extent(d, 1);
    // values per chunk step along d, with the axes after d already at their chosen extent
    const rest = values / one;
    let best = 1;
    for (let kd = counts[d]!; kd > 1; kd--) {
      if (rest * extent(d, kd) <= budget) {
        best = kd;
        break;
      }
    }
    k[d] = best;
    values = rest * extent(d, best);
    // An axis not taken whole leaves the earlier axes at one chunk: a slab is a box.
    if (best < counts[d]!) break;
  }
  return k;
}

/** The slabs covering an array exactly once, in C order of their origins. */
export function planSlabs(shape: readonly number[], chunks: readonly number[], budget: number): Slab[] {
  const k = slabChunks(shape, chunks, budget);
  const step = k.map((kd, d) => kd * chunks[d]!);
  if (shape.some((n) => n === 0)) return [];
  const slabs: Slab[] = [];
  const start = shape.map(() => 0);
  for (;;) {
    slabs.push({ start: start.slice(), shape: start.map((s, d) => Math.min(step[d]!, shape[d]! - s)) });
    let d = shape.length - 1;
    for (; d >= 0; d--) {
      start[d]! += step[d]!;
      if (start[d]! < shape[d]!) break;
      start[d] = 0;
    }
    if (d < 0) return slabs;
  }
}
