/**
 * The WebAssembly kernels (src/synthetic/kernels): each committed binary is its text assembled,
 * and the kernel memory keeps its tables while scratch grows it. What the kernels compute is
 * tested through their callers: quad-extremes.test.ts (daily anchors against the block path),
 * synthetic-quad-hourly.test.ts (hourly series built on them, against computeField) and
 * synthetic-v4.test.ts (node records against quadNodes).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleKernel, KERNEL_DIR, kernelModuleSource } from '../scripts/kernel-assembly.js';
import { KernelMemory } from '../src/synthetic/kernels/kernel-memory.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', KERNEL_DIR);

describe('WebAssembly kernels', () => {
  it('every committed .wasm.ts is its .wat assembled (run the assemble-wasm script after editing a .wat)', async () => {
    const texts = (await fs.readdir(dir)).filter((f) => f.endsWith('.wat'));
    expect(texts.length).toBeGreaterThan(0);
    for (const name of texts) {
      const base64 = await assembleKernel(await fs.readFile(path.join(dir, name), 'utf8'), name);
      const committed = await fs.readFile(path.join(dir, name.replace(/\.wat$/, '.wasm.ts')), 'utf8');
      expect(committed).toBe(kernelModuleSource(name, base64));
    }
  });

  it('a text with an error is refused with wabt\'s message, naming the file', async () => {
    await expect(assembleKernel('(module (func (result i32) (i32.add (i32.const 1))))', 'bad.wat')).rejects.toThrow(/bad\.wat/);
  });

  it('kernel memory: tables are copied once and outlive resets and growth; scratch is aligned', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const mem = new KernelMemory(memory);
    const table = Float64Array.from({ length: 100 }, (_, i) => i / 7);
    mem.reset();
    const before = mem.scratch(24);
    const at = mem.table(table);
    expect(at).toBeGreaterThanOrEqual(before + 32);
    expect(mem.table(table)).toBe(at);
    const big = mem.scratch(3 * 65_536 + 5);
    expect(big % 16).toBe(0);
    expect(big).toBeGreaterThanOrEqual(at + 800);
    expect(memory.buffer.byteLength).toBeGreaterThanOrEqual(big + 3 * 65_536 + 5);
    // a copy is scratch: gone at the next reset, unlike the table
    const copied = mem.copy(Uint16Array.of(1, 2, 3));
    expect(Array.from(new Uint16Array(memory.buffer, copied, 3))).toEqual([1, 2, 3]);
    mem.reset();
    expect(mem.scratch(8)).toBe(big);
    expect(Array.from(mem.f64(at, 100))).toEqual(Array.from(table));
  });
});
