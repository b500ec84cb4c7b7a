// Compiles the CLI (packages/fleet/src/cli.ts) and everything it imports into one JavaScript
// bundle, so a container runs `node cli.js` with no transpiler and nothing written at start
// (docs/architecture.md §9). `pnpm build [--out DIR]` writes DIR (default dist/):
//   cli.js         the bundle (ES module)
//   <area>-<name>.js
//                  each thread module an area's definition declares in `workers`
//                  (src/<name>.ts in its folder), found beside cli.js by workerModule
//                  (docs/decisions/0051-heavy-work-in-worker-threads.md)
//   data/          the geography grid the synthetic world reads
//   console-page/  the web console's page, built here so the console needs no bundler at run
//                  time (docs/decisions/0194-console-page-prebuilt-in-the-bundle.md)
//   package.json   marks cli.js as an ES module and lists the packages installed beside it
//   node_modules/  the packages that cannot be bundled, copied from this install with their
//                  dependencies, at the versions the lockfile pins
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { buildAssets } from '../packages/console/src/bundle.js';
import { PREBUILT_DIR, writePrebuilt } from '../packages/console/src/prebuilt.js';
import { BUNDLE_OPTIONS, copyGeography, INSTALLED_BESIDE, NEVER_LOADED, SOURCES_ONLY, workerEntries } from './bundle.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The package's directory as Node would find it from `fromDir`, symlinks resolved. */
function findPackage(name: string, fromDir: string): string {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (looked up from ${fromDir})`);
  }
}

const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Copies a package and, recursively, its dependencies into `modules`, flat as npm lays them out. */
function isInstalled(name: string, fromDir: string): boolean {
  try {
    findPackage(name, fromDir);
    return true;
  } catch {
    return false;
  }
}

function copyPackage(name: string, fromDir: string, modules: string, copied: Map<string, string>): void {
  const dir = findPackage(name, fromDir);
  const manifest = readManifest(dir);
  const seen = copied.get(name);
  if (seen !== undefined) {
    if (seen !== manifest.version) throw new Error(`two versions of ${name} (${seen}, ${manifest.version}) would share dist/node_modules`);
    return;
  }
  copied.set(name, manifest.version);
  cpSync(dir, join(modules, name), { recursive: true, dereference: true });
  // pnpm links a package's dependencies beside it; follow them from its real directory.
  for (const dependency of Object.keys(manifest.dependencies ?? {})) copyPackage(dependency, dir, modules, copied);
  // Optional ones are the native builds of other platforms (esbuild's): only this platform's is installed.
  for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) {
    if (isInstalled(dependency, dir)) copyPackage(dependency, dir, modules, copied);
  }
}

const out = resolve(root, parseArgs({ options: { out: { type: 'string' } } }).values.out ?? 'dist');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  ...BUNDLE_OPTIONS,
  entryPoints: { cli: join(root, 'packages/fleet/src/cli.ts'), ...workerEntries() },
  outdir: out,
  metafile: true,
});

// Every package the bundle still imports must be one this script installs or one that is never
// loaded. The output's imports are the ones left after type-only imports are erased.
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const neverLoaded = (specifier: string) =>
  NEVER_LOADED.some((p) => p === specifier || (p.endsWith('/*') && specifier.startsWith(p.slice(0, -1))));
const outputs = Object.values(result.metafile.outputs);
const importers = new Map<string, string>();
for (const { path, kind } of outputs.flatMap((o) => o.imports)) {
  if (builtins.has(path) || neverLoaded(path)) continue;
  const name = packageOf(path);
  if (SOURCES_ONLY.includes(name)) {
    // a static import would load it at start, where it is not installed
    if (kind !== 'dynamic-import') throw new Error(`the bundle imports ${path} statically; it is left out as used from the sources only`);
    continue;
  }
  if (!INSTALLED_BESIDE.includes(name)) throw new Error(`the bundle imports ${path}, which is neither bundled nor installed beside it`);
  // look the package up from the workspace package that depends on it, as Node would
  const importer = Object.entries(result.metafile.inputs).find(
    ([file, input]) => !file.includes('node_modules') && input.imports.some((i) => packageOf(i.path) === name),
  );
  importers.set(name, dirname(join(root, importer?.[0] ?? 'package.json')));
}

const copied = new Map<string, string>();
for (const [name, importer] of importers) copyPackage(name, importer, join(out, 'node_modules'), copied);
const dependencies = Object.fromEntries([...copied].sort(([a], [b]) => a.localeCompare(b)));
copyGeography(out);
// The console's page, served from here by the bundle (packages/console/src/server.ts).
writePrebuilt(await buildAssets(), join(out, PREBUILT_DIR));

writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify({ name: 'fieldcast', private: true, type: 'module', dependencies }, null, 2)}\n`,
);

const size = (outputs.reduce((sum, o) => sum + o.bytes, 0) / 1e6).toFixed(1);
process.stdout.write(
  `built ${join(out, 'cli.js')} and its workers (${size} MB); installed beside it: ${
    Object.entries(dependencies)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ') || 'none'
  }\n`,
);
