import type { PositionalSink } from '../src/formats/raster.js';

/** A sink that keeps the file in memory, for tests of the writers. */
export class MemorySink implements PositionalSink {
  private buffer = Buffer.alloc(0);
  private length = 0;

  async write(bytes: Uint8Array, position: number): Promise<void> {
    const end = position + bytes.length;
    if (end > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(end, this.buffer.length * 2));
      this.buffer.copy(grown);
      this.buffer = grown;
    }
    this.buffer.set(bytes, position);
    this.length = Math.max(this.length, end);
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
