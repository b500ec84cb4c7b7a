import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SRC = join(import.meta.dirname, '..', 'src');

/** The files below the routes: the domain and the store (docs/architecture.md §1, §3). */
function belowRoutes(): string[] {
  const domain = readdirSync(join(SRC, 'domain'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(SRC, 'domain', f));
  return [...domain, join(SRC, 'store.ts')];
}

/** What a module imports from a package, by name (type-only imports included). */
function importedNames(text: string, from: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (m[2] === from)
      names.push(
        ...m[1]!
          .split(',')
          .map((n) => n.trim().replace(/^type\s+/, ''))
          .filter(Boolean),
      );
  }
  return names;
}

describe('below the routes: no HTTP', () => {
  it.each(belowRoutes())('%s throws domain errors and imports nothing of HTTP', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/from 'express'/);
    // From the kit only the error classes (error-table.ts gives them their statuses) and the calling account.
    for (const name of importedNames(text, '@fieldcast/kit')) expect(name).toMatch(/^(\w+Error|Account)$/);
  });
});
