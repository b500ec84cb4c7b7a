import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * No import cycles in the repository's TypeScript sources (packages/*\/src, services/*\/src),
 * within a package or across packages: a cycle makes module initialisation order matter and
 * means two modules cannot be understood apart. Every import counts, `import type` included,
 * so the module graph stays layered even where the cycle would be erased at run time.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Workspace package name (and subpath) -> source file, from each package.json's `exports`. */
function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const group of ['packages', 'services']) {
    for (const dir of readdirSync(join(ROOT, group))) {
      const manifest = join(ROOT, group, dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: Record<string, string> | string };
      const exports = typeof pkg.exports === 'string' ? { '.': pkg.exports } : (pkg.exports ?? {});
      for (const [sub, target] of Object.entries(exports))
        entries.set(sub === '.' ? pkg.name : `${pkg.name}/${sub.replace(/^\.\//, '')}`, join(ROOT, group, dir, target));
    }
  }
  return entries;
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path);
    }
  };
  for (const group of ['packages', 'services']) {
    for (const dir of readdirSync(join(ROOT, group))) {
      const src = join(ROOT, group, dir, 'src');
      if (existsSync(src)) walk(src);
    }
  }
  return out;
}

/** Module specifiers of static imports, re-exports and dynamic imports with a literal. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[1]!);
  return found;
}

function resolveImport(from: string, spec: string, entries: Map<string, string>): string | null {
  if (spec.startsWith('.')) {
    const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
    for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
    return null;
  }
  return entries.get(spec) ?? null;
}

/** The import graph: file -> files it imports. */
function importGraph(): Map<string, string[]> {
  const entries = workspaceEntries();
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((spec) => resolveImport(file, spec, entries))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** One cycle per strongly connected component with more than one file (or a file importing itself), as a path. */
function findCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components (Tarjan 1972), iterative.
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component);
      }
    }
  }
  return components.map((component) => cycleIn(graph, new Set(component)));
}

/** A shortest cycle through the component's first file, found by breadth-first search inside the component. */
function cycleIn(graph: Map<string, string[]>, component: Set<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

describe('repository import graph', () => {
  it('has no import cycles in packages/*/src and services/*/src', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    const cycles = findCycles(graph).map((cycle) => cycle.map((file) => relative(ROOT, file)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('finds and names a cycle', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(findCycles(graph).sort()).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
  });
});
