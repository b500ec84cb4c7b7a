/**
 * The memory of a WebAssembly kernel instance, handed out as byte offsets: process tables copied
 * in once and kept (`table`), and per-call scratch from a bump arena (`scratch`) that `reset`
 * empties. Kernel calls are synchronous, so one call's scratch is never live during another's.
 *
 * Growing the memory detaches every typed-array view of it, so a call reserves all its scratch
 * first and only then builds views (`f64`, `f32`, `i32`, `u16`) and fills them.
 */
export class KernelMemory {
  private readonly tables = new WeakMap<ArrayBufferView, number>();
  private tableEnd = 0;
  private top = 0;

  constructor(private readonly memory: WebAssembly.Memory) {}

  /** Empties the scratch arena (tables stay). */
  reset(): void {
    this.top = this.tableEnd;
  }

  /** Offset of `bytes` bytes of scratch, 16-byte aligned (v128 loads and stores). */
  scratch(bytes: number): number {
    const at = this.top;
    this.top = at + align(bytes);
    this.ensure(this.top);
    return at;
  }

  /**
   * Offset of a copy of a process-lifetime table, made on first use. Call before `scratch` in a
   * call: a table is placed at the arena's base, which it moves up.
   */
  table(values: Float64Array | Uint16Array): number {
    const known = this.tables.get(values);
    if (known !== undefined) return known;
    if (this.top !== this.tableEnd) throw new Error('KernelMemory.table after scratch in the same call');
    const at = this.tableEnd;
    this.tableEnd = this.top = at + align(values.byteLength);
    this.ensure(this.tableEnd);
    new Uint8Array(this.memory.buffer, at, values.byteLength).set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
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

  u16(at: number, n: number): Uint16Array {
    return new Uint16Array(this.memory.buffer, at, n);
  }

  private ensure(end: number): void {
    const have = this.memory.buffer.byteLength;
    if (end > have) this.memory.grow(Math.ceil((end - have) / 65_536));
  }
}

function align(bytes: number): number {
  return (bytes + 15) & ~15;
}
