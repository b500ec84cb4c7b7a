/**
 * Decoded chunks kept in memory, least recently used evicted first, bounded in bytes.
 * Point series near one another (the fields of one farm, consecutive requests for one asset)
 * read the same [time, 8, 8] chunk; decoding it once is most of the cost of a Zarr read.
 * In-flight loads are shared so concurrent readers of one chunk fetch it once.
 */
export interface DecodedChunk {
  data: ArrayLike<number | bigint> & { byteLength: number };
  shape: number[];
  stride: number[];
}

export class ChunkCache {
  private readonly entries = new Map<string, DecodedChunk>();
  private readonly inflight = new Map<string, Promise<DecodedChunk>>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get sizeBytes(): number {
    return this.bytes;
  }

  async get(key: string, load: () => Promise<DecodedChunk>): Promise<DecodedChunk> {
    const hit = this.entries.get(key);
    if (hit) {
      // Map keeps insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const p = load().then(
      (chunk) => {
        this.inflight.delete(key);
        this.put(key, chunk);
        return chunk;
      },
      (err: unknown) => {
        this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, p);
    return p;
  }

  private put(key: string, chunk: DecodedChunk): void {
    const size = chunk.data.byteLength;
    if (size > this.maxBytes) return;
    this.entries.set(key, chunk);
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.data.byteLength;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
