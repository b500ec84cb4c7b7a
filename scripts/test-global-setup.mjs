// The test suites' global setup: the fixed costs every test file would otherwise pay again,
// computed once per run by scripts/test-fixtures.ts (the climate lattice, and for the unit suite a
// migrated database template), and handed to the test workers, which inherit this process's
// environment.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs scripts/test-fixtures.ts; with `databaseTemplate`, test fleets on PGlite start from its dump. */
export function prepareTestFixtures({ databaseTemplate }) {
  const template = join(root, 'test-output', 'database-template.tar');
  mkdirSync(dirname(template), { recursive: true });
  process.stdout.write('\n');
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/test-fixtures.ts'), ...(databaseTemplate ? [template] : [])], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (databaseTemplate) process.env.FIELDCAST_TEST_DATABASE = template;
}

export default function globalSetup() {
  prepareTestFixtures({ databaseTemplate: true });
}
