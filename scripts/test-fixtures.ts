// What a whole test run computes once, before any test file (scripts/test-global-setup.mjs):
//   - the synthetic world's climate lattice, written to the cache folder, which every process and
//     compute thread then reads instead of computing the places it touches
//     (packages/weather/src/synthetic/climate-lattice.ts);
//   - when a file is named on the command line, an embedded database with identity and every
//     area's schema migrated, dumped to it: each test fleet then starts PGlite from it
//     (openTestDatabase) instead of running initdb and every migration again. The file's name
//     says what it was made from (scripts/test-global-setup.mjs): one that exists is kept.
// Prints one line per fixture.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { writeClimateLatticeFile } from '@fieldcast/weather';

const templateFile = process.argv[2];

let started = Date.now();
const lattice = writeClimateLatticeFile();
process.stdout.write(`climate lattice: ${lattice} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);

if (templateFile && existsSync(templateFile)) {
  process.stdout.write(`database template: ${templateFile} (kept)\n`);
} else if (templateFile) {
  started = Date.now();
  // Loaded only here: the registry imports every area.
  const [{ dumpDatabase, openDatabase }, { SERVICES }, { migrateIdentity, migrateService }] = await Promise.all([
    import('@fieldcast/db'),
    import('@fieldcast/fleet'),
    import('@fieldcast/runtime'),
  ]);
  const db = await openDatabase({ dataDir: null, template: true });
  await migrateIdentity(db);
  for (const service of SERVICES) await migrateService(db, service);
  // whole or not at all: a run stopped while writing leaves no template that looks made
  writeFileSync(`${templateFile}.partial`, new Uint8Array(await (await dumpDatabase(db)).arrayBuffer()));
  renameSync(`${templateFile}.partial`, templateFile);
  await db.close();
  process.stdout.write(`database template: ${templateFile} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
