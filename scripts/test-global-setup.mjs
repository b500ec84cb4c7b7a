// The test suites' global setup: the fixed costs every test file would otherwise pay again,
// computed once by scripts/test-fixtures.ts (the climate lattice, and for the unit suite a
// migrated database template), and handed to the test workers, which inherit this process's
// environment.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What the template's tables come from: every migration, the identity schema, the database
 * package, the ids the migrations import, the areas' definitions (which list their migrations),
 * this setup and PGlite's version. A test fleet migrates its database at start anyway, so a
 * template missing a migration added since is brought up to date there; one whose migrations
 * changed is named by another hash and made again.
 */
const TEMPLATE_INPUTS = [
  'services/*/migrations',
  'services/*/src/definition.ts',
  'packages/db/src',
  'packages/ids/src',
  'packages/runtime/src/identity.ts',
  'packages/fleet/src/services.ts',
  'scripts/test-fixtures.ts',
  'scripts/test-global-setup.mjs',
  'node_modules/.pnpm/lock.yaml',
];

/** Files under `path` (a file, or a folder read recursively), sorted. */
function filesUnder(path) {
  try {
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  } catch {
    return [path];
  }
}

/**
 * What the compute threads' bundles come from: every source module they may import, the bundling
 * settings and the installed packages. Any change to them makes the bundles again.
 */
const WORKER_INPUTS = ['packages/*/src', 'services/*/src', 'scripts/bundle.ts', 'scripts/test-fixtures.ts', 'node_modules/.pnpm/lock.yaml'];

/** Expands one `*` path segment (services/*\/migrations) against the folders that exist. */
function expand(pattern) {
  const [head, ...rest] = pattern.split('/*/');
  if (rest.length === 0) return [join(root, pattern)];
  return readdirSync(join(root, head), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, head, entry.name, rest.join('/*/')))
    .sort();
}

function fingerprint(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(expand).flatMap(filesUnder)) {
    hash.update(file.slice(root.length)).update('\0');
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update('(absent)');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** How old another run's fixtures are before they are taken for leftovers (a whole suite takes minutes). */
const LEFTOVER_AFTER_MS = 3_600_000;

/**
 * Runs scripts/test-fixtures.ts: the climate lattice, the compute threads' bundles (test fleets'
 * threads load them, FIELDCAST_WORKER_BUNDLES) and, with `databaseTemplate`, the database test
 * fleets on PGlite start from. Each is named by a hash of what it is made from; other ones are
 * earlier runs' leftovers, removed once an hour old: a run started a moment ago on other sources
 * (an editor's, while files change) is still reading its own.
 */
export function prepareTestFixtures({ databaseTemplate }) {
  const folder = join(root, 'test-output');
  const template = join(folder, `database-template-${fingerprint(TEMPLATE_INPUTS)}.tar`);
  const workers = join(folder, `workers-${fingerprint(WORKER_INPUTS)}`);
  mkdirSync(folder, { recursive: true });
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    // another run's fixtures made from these inputs, or being made (a partial), are this run's too
    const current = [template, workers].some((made) => path === made || path.startsWith(`${made}.partial-`));
    const fixture = (/^database-template-/.test(name) && databaseTemplate) || /^workers-/.test(name);
    // another run may remove it first
    const modifiedMs = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (fixture && !current && Date.now() - modifiedMs > LEFTOVER_AFTER_MS) rmSync(path, { recursive: true, force: true });
  }
  process.stdout.write('\n');
  const args = ['--workers', workers, ...(databaseTemplate ? ['--template', template] : [])];
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/test-fixtures.ts'), ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.env.FIELDCAST_WORKER_BUNDLES = workers;
  if (databaseTemplate) process.env.FIELDCAST_TEST_DATABASE = template;
}

export default function globalSetup() {
  prepareTestFixtures({ databaseTemplate: true });
}
