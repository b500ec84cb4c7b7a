import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICES } from '../src/services.js';

// The shape every area keeps (docs/adding-an-area.md): one entry point, its definition, used by
// the container (`fieldcast serve <area>`) and the embedded fleet alike; migrations that stand
// alone; a kit that is HTTP only.
const root = process.cwd();
const areas = readdirSync(join(root, 'services'));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const importsOf = (text: string) => [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

describe.each(areas)('services/%s', (area) => {
  it('is in the registry of areas, and its package exports only its definition', () => {
    expect(SERVICES.map((s) => s.area)).toContain(area);
    expect(read(`services/${area}/src/index.ts`)).toMatch(/^export \{ \w+Service \} from '\.\/definition\.js';\n$/);
    expect(existsSync(join(root, `services/${area}/src/main.ts`))).toBe(false);
    expect(existsSync(join(root, `services/${area}/src/app.ts`))).toBe(false);
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
