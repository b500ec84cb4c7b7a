/**
 * Assembles each WebAssembly text kernel (src/synthetic/kernels/<name>.wat) into
 * <name>.wasm.ts, a module holding the binary as base64, so the runtime needs no assembler and
 * no file path: `npx -y pnpm@10 --filter @fieldcast/weather assemble-wasm`. test/kernels.test.ts
 * assembles again and fails while a committed binary differs from its text.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleKernel, KERNEL_DIR, kernelModuleSource } from './kernel-assembly.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', KERNEL_DIR);
for (const name of (await fs.readdir(dir)).filter((f) => f.endsWith('.wat'))) {
  const base64 = await assembleKernel(await fs.readFile(path.join(dir, name), 'utf8'), name);
  const out = path.join(dir, name.replace(/\.wat$/, '.wasm.ts'));
  await fs.writeFile(out, kernelModuleSource(name, base64));
  console.log(`${path.relative(process.cwd(), out)}: ${Buffer.from(base64, 'base64').length} bytes`);
}
