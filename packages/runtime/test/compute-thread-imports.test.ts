import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * What a compute thread loads before it can take its first task (docs/decisions/0051-heavy-work-in-worker-threads.md,
 * docs/decisions/0322-compute-threads-load-what-they-run.md): `@fieldcast/runtime/compute-thread` reaches node's built-ins only.
 * Loading the kit for an error's fields (Express, schemas, OpenAPI) was most of a thread's start,
 * and the first request after a start waited for it.
 */
const ENTRY = resolve(dirname(fileURLToPath(import.meta.url)), '../src/workers/compute-thread.ts');

/** Specifiers of the imports and re-exports that remain at run time (`import type` is erased). */
function runtimeImports(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/\b(import|export)\s+(type\s+)?[^'";]*?\sfrom\s*['"]([^'"]+)['"]/g)) if (!m[2]) found.push(m[3]!);
  for (const m of code.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  return found;
}

function packagesReached(entry: string): string[] {
  const seen = new Set<string>();
  const packages: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.push(spec);
    }
  };
  visit(entry);
  return packages;
}

describe('the compute thread module', () => {
  it('imports only node built-ins, directly or through its own modules', () => {
    const packages = packagesReached(ENTRY);
    expect(packages.length).toBeGreaterThan(0);
    expect(packages.filter((p) => !p.startsWith('node:'))).toEqual([]);
  });

  it('is the subpath the package exports for threads', () => {
    const manifest = JSON.parse(readFileSync(resolve(dirname(ENTRY), '../../package.json'), 'utf8')) as { exports: Record<string, string> };
    expect(resolve(dirname(ENTRY), '../..', manifest.exports['./compute-thread']!)).toBe(ENTRY);
  });
});
