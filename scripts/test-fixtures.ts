// What a whole test run computes once, before any test file (scripts/test-global-setup.mjs):
//   - the synthetic world's climate lattice, written to the cache folder, which every process and
//     compute thread then reads instead of computing the places it touches
//     (packages/weather/src/synthetic/climate-lattice.ts);
//   - with `--workers DIR`, the areas' thread modules bundled into DIR (scripts/bundle.ts): a test
//     fleet's compute thread loads one file, where from the sources it would transpile them all;
//   - with `--template FILE`, an embedded database with identity and every area's schema
//     migrated, dumped to FILE: each test fleet then starts PGlite from it (openTestDatabase)
//     instead of running initdb and every migration again.
// The names say what each was made from (scripts/test-global-setup.mjs): one that exists is kept.
// Prints one line per fixture.
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeClimateLatticeFile } from '@fieldcast/weather';

const { workers, template } = parseArgs({ options: { workers: { type: 'string' }, template: { type: 'string' } } }).values;

/**
 * Makes `path` by `make` into a partial path of this process's own, then renames it: a run stopped
 * midway leaves nothing that looks made, and two runs started together (a developer's and an
 * editor's) each make their own, the first renamed kept.
 */
async function whole(name: string, path: string, make: (partial: string) => Promise<void>): Promise<void> {
  if (existsSync(path)) {
    process.stdout.write(`${name}: ${path} (kept)\n`);
    return;
  }
  const started = Date.now();
  const partial = `${path}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  await make(partial);
  try {
    renameSync(partial, path);
  } catch (err) {
    // a folder another run renamed first (ENOTEMPTY, EEXIST): the same inputs made it
    if (!existsSync(path)) throw err;
    rmSync(partial, { recursive: true, force: true });
  }
  process.stdout.write(`${name}: ${path} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

const started = Date.now();
const lattice = writeClimateLatticeFile();
process.stdout.write(`climate lattice: ${lattice} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);

if (workers) {
  await whole('thread bundles', workers, async (partial) => {
    // Loaded only here: the registry imports every area.
    const [{ build }, { BUNDLE_OPTIONS, copyGeography, workerEntries }] = await Promise.all([import('esbuild'), import('./bundle.js')]);
    await build({ ...BUNDLE_OPTIONS, entryPoints: workerEntries(), outdir: partial });
    copyGeography(partial);
  });
}

if (template) {
  await whole('database template', template, async (partial) => {
    const [{ dumpDatabase, openDatabase }, { SERVICES }, { migrateIdentity, migrateService }] = await Promise.all([
      import('@fieldcast/db'),
      import('@fieldcast/fleet'),
      import('@fieldcast/runtime'),
    ]);
    const db = await openDatabase({ dataDir: null, template: true });
    await migrateIdentity(db);
    for (const service of SERVICES) await migrateService(db, service);
    writeFileSync(partial, new Uint8Array(await (await dumpDatabase(db)).arrayBuffer()));
    await db.close();
  });
}
