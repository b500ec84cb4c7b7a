/**
 * Float32 buffers reused between reads whose values live only until they are mixed into a
 * result (ZarrSource.pointSeries). A bilinear hourly read of a year fetches about 70 KB per
 * column pair and variable; allocating them per call spends a tenth of the read's time in
 * garbage collection and zero-filling.
 */
export class ScratchPool {
  private readonly free: Float32Array[] = [];

  /** Keeps at most `maxBuffers` idle buffers; more are left to the garbage collector. */
  constructor(private readonly maxBuffers = 32) {}

  /** A buffer of at least `length` elements, with unspecified contents. */
  take(length: number): Float32Array {
    for (let k = this.free.length - 1; k >= 0; k--) {
      const buffer = this.free[k]!;
      if (buffer.length >= length) {
        this.free[k] = this.free[this.free.length - 1]!;
        this.free.pop();
        return buffer;
      }
    }
    return new Float32Array(length);
  }

  /** Returns a buffer from `take`; nothing may read or write it afterwards. */
  give(buffer: Float32Array): void {
    if (this.free.length < this.maxBuffers) this.free.push(buffer);
  }
}
