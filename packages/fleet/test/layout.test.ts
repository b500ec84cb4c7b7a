import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedBaseUrls } from '@fieldcast/client';
import { portOf, type Service } from '@fieldcast/runtime';
import { checkedRegistry, SERVICES } from '../src/services.js';

// The shape every area keeps (docs/adding-an-area.md): one entry point, its definition, used by
// the container (`fieldcast serve <area>`) and the embedded fleet alike; migrations that stand
// alone; a kit that is HTTP only.
const root = process.cwd();
const areas = readdirSync(join(root, 'services'));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const importsOf = (text: string) => [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

/** The files below an area's routes: its domain and its store (docs/architecture.md §1, §3). */
function belowRoutes(area: string): string[] {
  const domain = `services/${area}/src/domain`;
  const files = existsSync(join(root, domain))
    ? readdirSync(join(root, domain), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `${domain}/${f}`)
    : [];
  return existsSync(join(root, `services/${area}/src/store.ts`)) ? [...files, `services/${area}/src/store.ts`] : files;
}

/** What a module imports from a package, by name (type-only imports included). */
function importedNames(text: string, from: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (m[2] !== from) continue;
    names.push(
      ...m[1]!
        .split(',')
        .map((n) => n.trim().replace(/^type\s+/, ''))
        .filter(Boolean),
    );
  }
  return names;
}

/** Source without its comments, so a comment that names a drop is not one. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** Each `alterTable(…)` call: what it adds to or changes in a table that exists. */
function alterTableCalls(code: string): string[] {
  const calls: string[] = [];
  for (const m of code.matchAll(/\balterTable\s*\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < code.length && depth > 0; i++) depth += code[i] === '(' ? 1 : code[i] === ')' ? -1 : 0;
    calls.push(code.slice(m.index, i));
  }
  return calls;
}

/**
 * What in a migration stops the previous release's code, which keeps serving beside the new
 * during a rolling update (docs/decisions/0419-migrations-keep-the-previous-release-working.md):
 * a table or column it reads dropped or renamed, or a column it does not write made NOT NULL
 * without a default. New tables are the new code's alone, so their columns may be anything.
 */
function rollingUpdateHazards(text: string): string[] {
  const code = withoutComments(text);
  const hazards: string[] = [];
  if (/\bdrop(Column|Columns|Table|TableIfExists)\s*\(|\bdrop\s+(column|table)\b/i.test(code)) hazards.push('drops a column or table');
  if (/\brename(Column|Table)\s*\(|\brename\s+(column\b|to\b|\w+\s+to\b)/i.test(code)) hazards.push('renames a column or table');
  const addedSql = [...code.matchAll(/\badd\s+column\b[^,`'"]*/gi)].map((m) => m[0]);
  const addedKnex = alterTableCalls(code).flatMap((call) => call.split(';'));
  if (
    /\bset\s+not\s+null\b|\bdropNullable\s*\(/i.test(code) ||
    addedSql.some((clause) => /\bnot\s+null\b/i.test(clause) && !/\bdefault\b/i.test(clause)) ||
    addedKnex.some((statement) => /\.notNullable\(\)/.test(statement) && !/\.defaultTo\(/.test(statement))
  )
    hazards.push('makes a column NOT NULL without a default');
  return hazards;
}

/**
 * Migrations that take away from what the release before them used, and why each stands: an
 * area's as `area/file`, one kept in a package's source by its path. A released migration is never
 * edited: it has run on deployed schemas, and one edited would leave them unlike a new one.
 */
const ROLLING_UPDATE_EXCEPTIONS: Record<string, string> = {
  'events/002_feeds.ts':
    'released before the rule: events.app_id set NOT NULL once filled, which the consumer of the release before did not write',
  'events/003_feed_entries.ts':
    'released before the rule: events.entry set NOT NULL once filled, which the consumer of the release before did not write',
  'tiles/004_style_views.ts': 'released before the rule: styles.view set NOT NULL once filled, which the release before did not write',
};

it('the rolling-update guard finds drops, renames and NOT NULL without a default, and nothing in new tables or comments', () => {
  const hazards = (text: string) => rollingUpdateHazards(text);
  expect(hazards(`await knex.schema.withSchema(schema).alterTable('s', (t) => { t.dropColumn('held_until'); });`)).toEqual([
    'drops a column or table',
  ]);
  expect(hazards(`await knex.raw('alter table ??.s drop column x', [schema]);`)).toEqual(['drops a column or table']);
  expect(hazards(`await knex.schema.withSchema(schema).dropTable('s');`)).toEqual(['drops a column or table']);
  expect(hazards(`await knex.schema.withSchema(schema).alterTable('s', (t) => { t.renameColumn('a', 'b'); });`)).toEqual([
    'renames a column or table',
  ]);
  expect(hazards(`await knex.raw('alter table ??.s rename to t', [schema]);`)).toEqual(['renames a column or table']);
  expect(hazards(`await knex.raw('alter table ??.s rename column a to b', [schema]);`)).toEqual(['renames a column or table']);
  expect(hazards(`await knex.raw('alter table ??.s alter column receiver set not null', [schema]);`)).toEqual([
    'makes a column NOT NULL without a default',
  ]);
  expect(hazards(`await knex.raw('alter table ??.s add column n integer not null', [schema]);`)).toEqual([
    'makes a column NOT NULL without a default',
  ]);
  expect(hazards(`await knex.schema.withSchema(schema).alterTable('s', (t) => { t.text('view').notNullable().alter(); });`)).toEqual([
    'makes a column NOT NULL without a default',
  ]);
  // what the previous release's inserts fill by themselves, new tables, and words in comments
  expect(hazards(`await knex.raw('alter table ??.s add column n integer not null default 0', [schema]);`)).toEqual([]);
  expect(
    hazards(`await knex.schema.withSchema(schema).alterTable('s', (t) => { t.integer('n').notNullable().defaultTo(0); t.text('x'); });`),
  ).toEqual([]);
  expect(hazards(`await knex.schema.withSchema(schema).createTable('r', (t) => { t.text('url').notNullable(); });`)).toEqual([]);
  expect(
    hazards(`// a later migration drops the column\n/** then set not null */\nawait knex.raw('drop index if exists ??.i', [schema]);`),
  ).toEqual([]);
});

it('lists as exceptions to the rolling-update rule only migrations that exist', () => {
  for (const key of Object.keys(ROLLING_UPDATE_EXCEPTIONS)) {
    const [area, file] = key.split('/');
    const path = key.startsWith('packages/') ? key : `services/${area}/migrations/${file}`;
    expect([key, existsSync(join(root, path))]).toEqual([key, true]);
  }
});

/** The body of each migration's `up` in a module: from the brace after `async up(` or `up: async` to the one that closes it. */
function upBodies(text: string): string[] {
  const code = withoutComments(text);
  const bodies: string[] = [];
  for (const m of code.matchAll(/\basync\s+up\s*\(|\bup\s*:\s*async\b/g)) {
    const open = code.indexOf('{', m.index + m[0].length);
    let depth = 1;
    let i = open + 1;
    for (; i < code.length && depth > 0; i++) depth += code[i] === '{' ? 1 : code[i] === '}' ? -1 : 0;
    bodies.push(code.slice(open, i));
  }
  return bodies;
}

/**
 * Migrations kept in a package's source, not an area's migrations folder, found by their `up`:
 * the outbox of every area's schema (packages/db), identity's own schema and each area's copy of
 * the product grants (packages/runtime), and any added since. They run in the same rolling
 * updates, so the same rule holds for them; only their `up` bodies are read, not the code around
 * them, which may well delete rows.
 */
const packageMigrations = readdirSync(join(root, 'packages')).flatMap((pkg) => {
  const src = `packages/${pkg}/src`;
  if (!existsSync(join(root, src))) return [];
  return readdirSync(join(root, src), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${src}/${f}`)
    .filter((path) => upBodies(read(path)).length > 0);
});

it('finds the migrations kept in package source, and only their up bodies', () => {
  expect(packageMigrations).toEqual(
    expect.arrayContaining(['packages/db/src/outbox.ts', 'packages/runtime/src/identity.ts', 'packages/runtime/src/product-grants.ts']),
  );
  const module = `export const m: Migration = {\n  name: '001_x',\n  async up(knex, schema) {\n    await knex.schema.withSchema(schema).alterTable('t', (t) => {\n      t.dropColumn('c');\n    });\n  },\n};\nexport async function prune(knex: Knex) {\n  await knex('t').delete();\n}\n`;
  expect(upBodies(module)).toHaveLength(1);
  expect(rollingUpdateHazards(upBodies(module).join('\n'))).toEqual(['drops a column or table']);
  expect(
    upBodies(`const n = { name: 'x', up: async (knex) => { await knex.raw('alter table t rename to u'); } };`).map(rollingUpdateHazards),
  ).toEqual([['renames a column or table']]);
});

it.each(packageMigrations)(
  '%s has migrations that keep the previous release working during a rolling update (docs/decisions/0419-migrations-keep-the-previous-release-working.md)',
  (path) => {
    const hazards = upBodies(read(path)).flatMap(rollingUpdateHazards);
    if (path in ROLLING_UPDATE_EXCEPTIONS) expect([path, hazards.length > 0]).toEqual([path, true]);
    else expect([path, hazards]).toEqual([path, []]);
  },
);

describe.each(areas)('services/%s', (area) => {
  it('is in the registry of areas, and its package exports only its definition', () => {
    expect(SERVICES.map((s) => s.area)).toContain(area);
    expect(read(`services/${area}/src/index.ts`)).toMatch(/^export \{ \w+Service \} from '\.\/definition\.js';\n$/);
    expect(existsSync(join(root, `services/${area}/src/main.ts`))).toBe(false);
    expect(existsSync(join(root, `services/${area}/src/app.ts`))).toBe(false);
  });

  it('declares every thread module in its folder, so the bundle builds it (scripts/build.ts)', () => {
    const declared = SERVICES.find((s) => s.area === area)?.workers?.map((w) => w.name) ?? [];
    const files = readdirSync(join(root, `services/${area}/src`)).filter((f) => f.endsWith('-worker.ts'));
    expect(files.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual([...declared].sort());
  });

  it('keeps HTTP above its routes: domain and store throw domain errors and import nothing of HTTP', () => {
    for (const file of belowRoutes(area)) {
      const text = read(file);
      expect(text).not.toMatch(/from 'express'/);
      // From the kit only the error classes (error-table.ts gives them their statuses), the calling
      // account, and address ranges (address-ranges.ts: plain values, which the kit's limits share).
      for (const name of importedNames(text, '@fieldcast/kit'))
        expect(`${file}: ${name}`).toMatch(/: (\w+Error|Account|parseRange|AddressRange)$/);
    }
  });

  it('has migrations that import nothing from src/ (a migration must not change when the code does)', () => {
    const dir = `services/${area}/migrations`;
    for (const file of existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : []) {
      expect(importsOf(read(`${dir}/${file}`)).filter((spec) => spec.includes('/src/'))).toEqual([]);
    }
  });

  it('has migrations that keep the previous release working during a rolling update: they add, and drop only in a later release (docs/decisions/0419-migrations-keep-the-previous-release-working.md)', () => {
    const dir = `services/${area}/migrations`;
    for (const file of existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : []) {
      const hazards = rollingUpdateHazards(read(`${dir}/${file}`));
      // an exception that no longer takes anything away is no longer one
      if (`${area}/${file}` in ROLLING_UPDATE_EXCEPTIONS) expect([file, hazards.length > 0]).toEqual([file, true]);
      else expect([file, hazards]).toEqual([file, []]);
    }
  });
});

it('the kit depends on no database, transport, weather or test library at run time', () => {
  const manifest = JSON.parse(read('packages/kit/package.json')) as { dependencies: Record<string, string> };
  const forbidden = ['@fieldcast/db', '@fieldcast/bus', '@fieldcast/weather', '@fieldcast/runtime', 'knex', 'supertest'];
  expect(Object.keys(manifest.dependencies).filter((name) => forbidden.includes(name))).toEqual([]);
});

describe('the registry of areas', () => {
  const area = (name: string, port: number) => ({ ...SERVICES[0]!, area: name, port, workers: [] }) as Service;

  it('refuses two areas on one port, one name twice, a port out of order or a worker of another area', () => {
    expect(() => checkedRegistry([area('a', 1), area('b', 1)])).toThrow(/share a name or the port offset 1/);
    expect(() => checkedRegistry([area('a', 1), area('a', 2)])).toThrow(/share a name/);
    expect(() => checkedRegistry([area('a', 2), area('b', 1)])).toThrow(/port order/);
    expect(() => checkedRegistry([area('a', 0)])).toThrow(/positive integer/);
    expect(() => checkedRegistry([area('Bad-Name', 1)])).toThrow(/lower-case letters and digits/);
    expect(() => checkedRegistry([{ ...area('a', 1), workers: [{ area: 'b', name: 'x-worker' }] }])).toThrow(/declared for b/);
    expect(checkedRegistry([area('a', 1), area('b', 3)]).map((s) => s.area)).toEqual(['a', 'b']);
  });

  it('is what the client knows: each area at PORT_BASE plus its offset (packages/ids/src/areas.ts, generated)', () => {
    const urls: Record<string, string> = embeddedBaseUrls(9000);
    expect(Object.keys(urls)).toEqual(SERVICES.map((s) => s.area));
    for (const service of SERVICES) expect(urls[service.area]).toBe(`http://127.0.0.1:${portOf(service, 9000)}`);
  });
});
