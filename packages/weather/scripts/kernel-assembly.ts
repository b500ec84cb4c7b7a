/** Shared by scripts/assemble-wasm.ts and test/kernels.test.ts: text to binary, binary to module source. */
import wabtInit from 'wabt';

export const KERNEL_DIR = 'src/synthetic/kernels';

/** The binary of a WebAssembly text module, base64; throws with wabt's message on an error. */
export async function assembleKernel(text: string, name: string): Promise<string> {
  const wabt = await wabtInit();
  const module = wabt.parseWat(name, text, { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({ write_debug_names: false }).buffer).toString('base64');
  } finally {
    module.destroy();
  }
}

/** The generated module: one exported base64 constant named after the kernel. */
export function kernelModuleSource(name: string, base64: string): string {
  const constant = name.replace(/\.wat$/, '').toUpperCase().replace(/-/g, '_') + '_WASM';
  return `// Generated from ${name} by scripts/assemble-wasm.ts; edit the .wat and assemble again.\nexport const ${constant} = '${base64}';\n`;
}
