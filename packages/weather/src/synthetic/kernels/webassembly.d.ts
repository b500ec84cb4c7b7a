/**
 * The part of the WebAssembly JavaScript API the kernels use. Node has it as a global, but its
 * types live in TypeScript's DOM library, which this Node-only workspace does not load
 * (tsconfig.base.json "lib").
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, Memory>>);
    readonly exports: Record<string, unknown>;
  }
}
