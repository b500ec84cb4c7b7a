/**
 * Point series as byte ranges of uncompressed chunks: the read path behind ZarrSource's
 * `pointSeries` for stores laid out as Fieldcast writes them (layout.ts).
 *
 * Zarr v2 ("Chunk encoding"): with no compressor and no filters a chunk file is the chunk's
 * elements, all of them (edge chunks are padded to the full chunk shape), in the array's
 * `order`. In Fortran order the first index, time, varies fastest, so the series of one cell
 * inside a chunk is one contiguous run of bytes: a read of nt x 4 bytes at a computed offset,
 * the same cost as an `fs.read` of a flat file, with no decoding and no per-chunk work in
 * zarrita. Anything else (compressed, C order with more than one cell per chunk, other dtypes,
 * v3) goes through zarrita's chunk decoding instead.
 */
import * as os from 'node:os';
import type { AbsolutePath, RangeQuery } from 'zarrita';

/** A store that can return part of a value (FileStore, zarrita's FetchStore). */
export interface RangeReadable {
  getRange(key: AbsolutePath, range: RangeQuery): Promise<Uint8Array | undefined>;
  /** reads straight into target (FileStore): no buffer per read; undefined when key is absent */
  readInto?(key: AbsolutePath, position: number, target: Uint8Array): Promise<number | undefined>;
}

export function isRangeReadable(store: unknown): store is RangeReadable {
  return typeof (store as { getRange?: unknown } | null)?.getRange === 'function';
}

/** Where a cell's series lies in the chunk files of one array. */
export interface SeriesLayout {
  /** array path with a trailing "/" */
  prefix: string;
  /** v2 `dimension_separator` */
  separator: string;
  /** chunk shape [time, lat, lon] */
  chunks: [number, number, number];
  /** element strides inside a chunk for lat and lon (time's is 1) */
  strideLat: number;
  strideLon: number;
  /** raw value of a chunk that was never written (v2 `fill_value`) */
  fill: number;
}

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** v2 fill values: a number, or "NaN"/"Infinity"/"-Infinity" spelled as strings; null is none. */
function fillOf(v: unknown): number | undefined {
  if (v === null || v === undefined) return NaN;
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return undefined;
}

/**
 * The series layout of an array from its v2 `.zarray`, or null when a cell's series is not a
 * contiguous run of raw little-endian float32 in each chunk.
 */
export function seriesLayout(name: string, zarray: Record<string, unknown>): SeriesLayout | null {
  if (!LITTLE_ENDIAN) return null;
  const { zarr_format, dtype, compressor, filters, order, chunks, shape } = zarray;
  if (zarr_format !== 2 || (dtype !== '<f4' && dtype !== '|f4')) return null;
  if (compressor !== null || (filters !== null && filters !== undefined && !(Array.isArray(filters) && filters.length === 0))) return null;
  if (!Array.isArray(chunks) || !Array.isArray(shape) || chunks.length !== 3 || shape.length !== 3) return null;
  const [ct, ci, cj] = chunks as number[];
  if (!ct || !ci || !cj) return null;
  let strideLat: number, strideLon: number;
  if (order === 'F') {
    strideLat = ct;
    strideLon = ct * ci;
  } else if (order === 'C' && ci === 1 && cj === 1) {
    strideLat = strideLon = 0;
  } else {
    return null;
  }
  const fill = fillOf(zarray.fill_value);
  if (fill === undefined) return null;
  const separator = zarray.dimension_separator === '/' ? '/' : '.';
  return { prefix: `/${name}/`, separator, chunks: [ct, ci, cj], strideLat, strideLon, fill };
}

/**
 * Raw values of cell (i, j) for time steps [t0, t1): one ranged read per time chunk the range
 * touches. A missing chunk file holds the fill value everywhere (Zarr v2 "Storage").
 */
export async function readSeries(
  store: RangeReadable,
  layout: SeriesLayout,
  t0: number,
  t1: number,
  i: number,
  j: number,
): Promise<Float32Array> {
  const out = new Float32Array(t1 - t0);
  const [ct, ci, cj] = layout.chunks;
  const ki = Math.floor(i / ci);
  const kj = Math.floor(j / cj);
  const cell = (i - ki * ci) * layout.strideLat + (j - kj * cj) * layout.strideLon;
  const kt0 = Math.floor(t0 / ct);
  const kt1 = Math.floor((t1 - 1) / ct);
  if (kt0 === kt1) {
    await readPart(store, layout, out, t0, kt0, ki, kj, cell, t0, t1);
  } else {
    const reads: Array<Promise<void>> = [];
    for (let kt = kt0; kt <= kt1; kt++)
      reads.push(readPart(store, layout, out, t0, kt, ki, kj, cell, Math.max(t0, kt * ct), Math.min(t1, (kt + 1) * ct)));
    await Promise.all(reads);
  }
  return out;
}

/**
 * Raw values of cells (i, j) and (i + 1, j) for [t0, t1), when canReadPair says they can come
 * from one read (it throws otherwise). In Fortran order the two series lie strideLat elements apart in the same chunk
 * file, so one ranged read from the first's start to the second's end holds both; the bytes
 * between them (the rest of the first cell's time chunk) are read too, and only a small
 * remainder of that is allowed (canReadPair), so the pair costs about one read instead of two.
 * A bilinear point read asks for two such pairs (ZarrSource.pointSeries).
 */
export async function readSeriesPair(
  store: RangeReadable,
  layout: SeriesLayout,
  t0: number,
  t1: number,
  i: number,
  j: number,
  scratch?: Float32Array,
): Promise<[Float32Array, Float32Array]> {
  if (!canReadPair(layout, t0, t1, i)) throw new Error(`cells (${i}, ${j}) and (${i + 1}, ${j}) for steps [${t0}, ${t1}) are not one read`);
  const [ct, ci, cj] = layout.chunks;
  const ki = Math.floor(i / ci);
  const kt = Math.floor(t0 / ct);
  const n = t1 - t0;
  const kj = Math.floor(j / cj);
  const cell = (i - ki * ci) * layout.strideLat + (j - kj * cj) * layout.strideLon;
  const both = pairBuffer(layout, t0, t1, scratch);
  // As steps of cell i's series the read runs on past its time chunk into cell i + 1's series:
  // the same bytes of the same chunk file (a missing file fills both with the fill value).
  await readPart(store, layout, both, t0, kt, ki, kj, cell, t0, t0 + both.length);
  return [both.subarray(0, n), both.subarray(layout.strideLat, layout.strideLat + n)];
}

/** The most bytes a paired read may fetch beyond what the two series need. */
const PAIR_GAP_BYTES = 64 * 1024;

/** Elements a paired read fills. */
export function pairLength(layout: SeriesLayout, t0: number, t1: number): number {
  return layout.strideLat + (t1 - t0);
}

/** `scratch` cut to the pair's length (it is overwritten whole), or a new buffer. */
function pairBuffer(layout: SeriesLayout, t0: number, t1: number, scratch: Float32Array | undefined): Float32Array {
  const length = pairLength(layout, t0, t1);
  if (!scratch) return new Float32Array(length);
  if (scratch.length < length) throw new Error(`scratch of ${scratch.length} elements for a pair read of ${length}`);
  return scratch.subarray(0, length);
}

/** Whether readSeriesPair can serve cells (i, j) and (i + 1, j) for [t0, t1) (any j). */
export function canReadPair(layout: SeriesLayout, t0: number, t1: number, i: number): boolean {
  const [ct, ci] = layout.chunks;
  if (layout.strideLat === 0 || Math.floor((i + 1) / ci) !== Math.floor(i / ci)) return false;
  if (Math.floor((t1 - 1) / ct) !== Math.floor(t0 / ct)) return false;
  return (layout.strideLat - (t1 - t0)) * 4 <= PAIR_GAP_BYTES;
}

/** Steps [ta, tb) of the series, all inside time chunk kt, into out (which starts at step t0). */
async function readPart(
  store: RangeReadable,
  layout: SeriesLayout,
  out: Float32Array,
  t0: number,
  kt: number,
  ki: number,
  kj: number,
  cell: number,
  ta: number,
  tb: number,
): Promise<void> {
  const [ct, ci, cj] = layout.chunks;
  const sep = layout.separator;
  const key = `${layout.prefix}${kt}${sep}${ki}${sep}${kj}` as AbsolutePath;
  const length = (tb - ta) * 4;
  const offset = (cell + ta - kt * ct) * 4;
  const chunkBytes = ct * ci * cj * 4;
  const target = new Uint8Array(out.buffer, (ta - t0) * 4, length);
  let n: number | undefined;
  if (store.readInto) {
    n = await store.readInto(key, offset, target);
  } else {
    let bytes = await store.getRange(key, { offset, length });
    // An HTTP server that ignores Range answers 200 with the whole chunk.
    if (bytes && bytes.length === chunkBytes && bytes.length !== length) bytes = bytes.subarray(offset, offset + length);
    if (bytes && bytes.length === length) target.set(bytes);
    n = bytes?.length;
  }
  if (n === undefined) {
    out.fill(layout.fill, ta - t0, tb - t0);
  } else if (n !== length) {
    throw new Error(`zarr chunk ${key} is not ${chunkBytes} bytes of uncompressed float32 (truncated?)`);
  }
}
