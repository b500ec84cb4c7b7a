/**
 * The memory of the WebAssembly kernels, handed out as byte offsets: process tables copied
 * in once and kept (`table`), and per-call scratch from a bump arena (`scratch`, `copy`) that
 * `reset` empties. Kernel calls are synchronous, so one call's scratch is never live during
 * another's.
 *
 * Growing the memory detaches every typed-array view of it (the bytes stay), so a view from
 * `f64`, `f32`, `i32` or `u16` is for immediate use: take it after the last reservation that
 * could grow the memory, or use it before the next one.
 */
export class KernelMemory {
  private readonly tables = new WeakMap<ArrayBufferView, number>();
  private base = 0;
  private top = 0;

  constructor(readonly memory: WebAssembly.Memory) {}

  /** Empties the scratch arena (tables stay). */
  reset(): void {
    this.top = this.base;
  }

  /** Offset of `bytes` bytes of scratch, 16-byte aligned (v128 loads and stores). */
  scratch(bytes: number): number {
    const at = this.top;
    this.top = at + align(bytes);
    this.ensure(this.top);
    return at;
  }

  /** Offset of a scratch copy of `values`. */
  copy(values: Float64Array | Float32Array | Int32Array | Uint16Array): number {
    const at = this.scratch(values.byteLength);
    this.bytes(at, values.byteLength).set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    return at;
  }

  /**
   * Offset of the kept copy of a process-lifetime table, made on first use. It goes above this
   * call's scratch, and the arena starts above it from then on (the scratch below is given up
   * once per table).
   */
  table(values: Float64Array | Uint16Array): number {
    const known = this.tables.get(values);
    if (known !== undefined) return known;
    const at = this.copy(values);
    this.base = this.top;
    this.tables.set(values, at);
    return at;
  }

  f64(at: number, n: number): Float64Array {
    return new Float64Array(this.memory.buffer, at, n);
  }

  f32(at: number, n: number): Float32Array {
    return new Float32Array(this.memory.buffer, at, n);
  }

  i32(at: number, n: number): Int32Array {
    return new Int32Array(this.memory.buffer, at, n);
  }

  private bytes(at: number, n: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, at, n);
  }

  private ensure(end: number): void {
    const have = this.memory.buffer.byteLength;
    if (end > have) this.memory.grow(Math.ceil((end - have) / 65_536));
  }
}

function align(bytes: number): number {
  return (bytes + 15) & ~15;
}

/**
 * The one memory of both kernel modules (daily-anchors.wat, hourly-series.wat import it as
 * "kernels" "memory"), so the hourly temperature kernels read the daily anchors where the daily
 * kernels wrote them. Each top-level call resets the arena and leaves it to the next.
 */
export const kernelMemory = new KernelMemory(new WebAssembly.Memory({ initial: 1 }));
