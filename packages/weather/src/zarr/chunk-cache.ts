import { LoadingCache } from '@fieldcast/caches';

export interface DecodedChunk {
  data: ArrayLike<number | bigint> & { byteLength: number };
  shape: number[];
  stride: number[];
}

/**
 * Decoded chunks kept in memory, least recently used out first, bounded in bytes.
 * Point series near one another (the fields of one farm, consecutive requests for one asset)
 * read the same [time, 8, 8] chunk; decoding it once is most of the cost of a Zarr read.
 * In-flight loads are shared so concurrent readers of one chunk fetch it once.
 */
export function chunkCache(maxBytes: number): LoadingCache<DecodedChunk> {
  return new LoadingCache(maxBytes, (chunk) => chunk.data.byteLength);
}
