// How the fleet's code is bundled for Node (esbuild): the CLI and its thread modules by
// scripts/build.ts for a container, the thread modules alone by scripts/test-fixtures.ts for the
// test suites, whose compute threads then load one file each instead of transpiling the sources
// (docs/decisions/0071-test-fixtures-once-per-run.md).
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { SERVICES } from '@fieldcast/fleet';
import { workerBundleName } from '@fieldcast/runtime/workers';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Packages that load files (WebAssembly, data bundles) relative to their own module at run time. */
export const INSTALLED_BESIDE = ['@electric-sql/pglite'];

/**
 * Packages imported, dynamically, only on a path the bundle never takes: esbuild builds the
 * console's page when run from the sources; the bundle serves the page built by scripts/build.ts.
 */
export const SOURCES_ONLY = ['esbuild'];

/**
 * Drivers that knex and pg require only when configured for them; this project never is (it
 * runs on PostgreSQL through pg, or PGlite), so they stay unresolved and are never loaded.
 */
export const NEVER_LOADED = [
  'pg-native',
  'pg-query-stream',
  'better-sqlite3',
  'sqlite3',
  'mysql',
  'mysql2',
  'mariadb',
  'mariadb/*',
  'tedious',
  'oracledb',
];

/** esbuild's settings for every bundle of the fleet's code: ES modules for Node 20. */
export const BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // error names appear in logs and problem details; keep them as written
  keepNames: true,
  logLevel: 'warning',
  external: [...INSTALLED_BESIDE, ...SOURCES_ONLY, ...NEVER_LOADED],
  // CommonJS dependencies inside an ES module bundle still call require and read __dirname.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      "import { dirname as __pathDirname } from 'node:path';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      'const __dirname = __pathDirname(__filename);',
    ].join('\n'),
  },
};

/** The thread modules the registry's areas declare, each bundled under the name workerModule looks for. */
export function workerEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const worker of SERVICES.flatMap((s) => s.workers ?? [])) {
    const source = join(root, 'services', worker.area, 'src', `${worker.name}.ts`);
    if (!existsSync(source)) throw new Error(`area ${worker.area} declares worker ${worker.name}, but ${source} does not exist`);
    entries[workerBundleName(worker)] = source;
  }
  return entries;
}

/** The geography grid, read at run time beside a bundle (packages/geography/src/geography.ts). */
export function copyGeography(out: string): void {
  mkdirSync(join(out, 'data'), { recursive: true });
  cpSync(join(root, 'packages/geography/data/earth-geography.bin'), join(out, 'data/earth-geography.bin'));
}
