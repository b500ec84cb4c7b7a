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
