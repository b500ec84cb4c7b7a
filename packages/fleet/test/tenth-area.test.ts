import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { reservePortBase } from '@fieldcast/runtime/testing';

// docs/adding-an-area.md, followed in a copy of the repository: a tenth area is its folder and
// one entry in the registry (packages/fleet/src/services.ts and the registry's manifest). Linked
// and after `pnpm generate` it is deployed and served, and every other file that knows
// the areas (the lower packages' list, the deployment files, the topics) was written by the tools.
const run = promisify(execFile);
const root = process.cwd();
const PORT_BASE = reservePortBase();

/** The files of the new area, as the guide lays them out. */
const AREA_FILES: Record<string, string> = {
  'services/demo/package.json': `${JSON.stringify(
    {
      name: '@fieldcast/demo',
      version: '0.1.0',
      private: true,
      type: 'module',
      exports: { '.': './src/index.ts' },
      dependencies: {
        '@fieldcast/db': 'workspace:*',
        '@fieldcast/kit': 'workspace:*',
        '@fieldcast/runtime': 'workspace:*',
      },
    },
    null,
    2,
  )}\n`,
  'services/demo/migrations/001_demo.ts': `import type { Migration } from '@fieldcast/db';

export const demoMigration: Migration = {
  name: '001_demo',
  async up(knex) {
    await knex.schema.withSchema('demo').createTable('demo', (t) => {
      t.uuid('id').primary();
    });
  },
};
`,
  'services/demo/src/index.ts': `export { demoService } from './definition.js';\n`,
  'services/demo/src/definition.ts': `import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { demoMigration } from '../migrations/001_demo.js';

export const demoService = defineService({
  area: 'demo',
  port: 11,
  title: 'Demo',
  description: 'A demo area.',
  needs: { database: { migrations: [demoMigration] } },
  api: (deps) =>
    new Api().op({
      method: 'get',
      path: '/demo',
      summary: 'List the demo rows',
      tags: ['demo'],
      response: { status: 200, description: 'The demo rows' },
      handle: async () => deps.db.knex.withSchema('demo').table('demo').select('id'),
    }),
});
`,
};

/**
 * A copy of the working tree with its own node_modules links; the installed packages' store
 * (node_modules/.pnpm) is shared entry by entry, so an install in the copy writes only there.
 */
function copyRepository(): string {
  const copy = mkdtempSync(join(tmpdir(), 'fieldcast-tenth-area-'));
  const store = join(root, 'node_modules', '.pnpm');
  const skipped = new Set([join(root, '.git'), join(root, 'dist'), join(root, '.data'), store]);
  cpSync(root, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => !skipped.has(src) });
  mkdirSync(join(copy, 'node_modules', '.pnpm'));
  for (const entry of readdirSync(store)) {
    if (entry === 'node_modules' || entry === 'lock.yaml')
      cpSync(join(store, entry), join(copy, 'node_modules/.pnpm', entry), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(join(store, entry), join(copy, 'node_modules/.pnpm', entry));
  }
  return copy;
}

/** Links the workspace package at `target` into `dependant`'s node_modules, as pnpm does. */
function linkWorkspacePackage(dir: string, dependant: string, target: string): void {
  const name = (JSON.parse(readFileSync(join(dir, target, 'package.json'), 'utf8')) as { name: string }).name;
  const link = join(dir, dependant, 'node_modules', name);
  mkdirSync(join(link, '..'), { recursive: true });
  symlinkSync(relative(join(link, '..'), join(dir, target)), link);
}

/** Every file outside node_modules, by path relative to `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').includes('node_modules'));
}

/** Starts `fieldcast start` in `dir`; resolves with its printed banner once it serves. */
function startFleet(dir: string, dataDir: string): { child: ChildProcess; banner: Promise<string> } {
  const child = spawn(join(dir, 'node_modules/.bin/tsx'), [join(dir, 'packages/fleet/src/cli.ts'), 'start'], {
    cwd: dir,
    env: {
      ...process.env,
      PORT_BASE: String(PORT_BASE),
      FIELDCAST_DATA_DIR: dataDir,
      FIELDCAST_BACKGROUND: 'off',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      NODE_OPTIONS: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ctrl-C stops the fleet.')) resolve(out);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`fieldcast start exited with ${code}:\n${out}`)));
  });
  return { child, banner };
}

let copy: string;
beforeAll(() => {
  copy = copyRepository();
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

it('joins by its folder and the registry: generated, deployed and served on PORT_BASE + its port', async () => {
  const before = new Map(filesUnder(copy).map((path) => [path, readFileSync(join(copy, path), 'utf8')]));

  // The guide's steps 1 and 2: the folder, then the registry and its manifest.
  for (const [path, text] of Object.entries(AREA_FILES)) {
    mkdirSync(join(copy, path, '..'), { recursive: true });
    writeFileSync(join(copy, path), text);
  }
  const registry = join(copy, 'packages/fleet/src/services.ts');
  writeFileSync(
    registry,
    readFileSync(registry, 'utf8')
      .replace(
        "import type { Service } from '@fieldcast/runtime';",
        "import { demoService } from '@fieldcast/demo';\nimport type { Service } from '@fieldcast/runtime';",
      )
      .replace('  alertsService,\n]', '  alertsService,\n  demoService,\n]'),
  );
  const manifest = join(copy, 'packages/fleet/package.json');
  const fleetPackage = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies: Record<string, string> };
  fleetPackage.dependencies['@fieldcast/demo'] = 'workspace:*';
  writeFileSync(manifest, `${JSON.stringify(fleetPackage, null, 2)}\n`);

  // Step 3 and 4: link it, then generate. The links are made here as `pnpm install` makes them
  // (each workspace dependency a relative symlink in the dependant's node_modules): pnpm
  // re-resolves the whole workspace against the npm registry when a package joins it, which
  // would make this test wait on the network, and recording the lockfile is pnpm's work.
  for (const dependency of ['db', 'kit', 'runtime']) linkWorkspacePackage(copy, 'services/demo', `packages/${dependency}`);
  linkWorkspacePackage(copy, 'packages/fleet', 'services/demo');
  const generated = await run(join(copy, 'node_modules/.bin/tsx'), ['scripts/generate-deploy.ts'], { cwd: copy });
  expect(generated.stdout).toContain('generated files match the 11 areas');

  // Besides what was written by hand, only files the tools write changed.
  const changed = filesUnder(copy).filter((path) => before.get(path) !== readFileSync(join(copy, path), 'utf8'));
  expect(changed.sort()).toEqual(
    [
      ...Object.keys(AREA_FILES),
      'packages/fleet/src/services.ts',
      'packages/fleet/package.json',
      'packages/ids/src/areas.ts',
      'docker-compose.yml',
      'k8s/base/demo.yaml',
      'k8s/base/console.yaml',
      'k8s/base/kustomization.yaml',
    ].sort(),
  );
  expect(readFileSync(join(copy, 'packages/ids/src/areas.ts'), 'utf8')).toContain('  demo: 11,\n');
  const compose = parse(readFileSync(join(copy, 'docker-compose.yml'), 'utf8'), { merge: true });
  expect(compose.services.demo.command).toEqual(['serve', 'demo']);
  expect(compose.services.demo.ports).toEqual(['127.0.0.1:8091:8080']);

  // The embedded fleet serves it, its schema migrated, at PORT_BASE + 11.
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-tenth-data-'));
  const { child, banner } = startFleet(copy, dataDir);
  try {
    const printed = await banner;
    const url = `http://127.0.0.1:${PORT_BASE + 11}`;
    expect(printed).toContain(`demo          ${url}`);
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8')) as { applicationId: string; applicationKey: string };
    const auth = `Basic ${Buffer.from(`${demo.applicationId}:${demo.applicationKey}`).toString('base64')}`;
    const listed = await fetch(`${url}/demo`, { headers: { authorization: auth } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([]);
    const openapi = (await (await fetch(`${url}/openapi.json`)).json()) as { info: { title: string } };
    expect(openapi.info.title).toContain('Demo');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000); // a generation and a fleet started from the sources: a minute on a busy machine
