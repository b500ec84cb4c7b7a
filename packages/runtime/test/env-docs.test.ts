import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FleetEnv, parseEnv } from '../src/env.js';

// docs/operations.md tells operators the variables in its "Environment" and "Limits" tables; env.ts
// is what the fleet reads. A variable missing from the tables cannot be found, one the fleet does
// not read is set in vain (parseEnv drops unknown keys), and a default told wrong misleads.
const doc = readFileSync(join(process.cwd(), 'docs/operations.md'), 'utf8');

/** The rows of the table under a `## heading`, each as its cells. */
function tableUnder(heading: string): string[][] {
  const section = doc.split(/^## /m).find((s) => s.startsWith(`${heading}\n`))!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

const variables = (cell: string) => [...cell.matchAll(/`([A-Z][A-Z0-9_<>]*)`/g)].map((m) => m[1]!);

/** Environment rows: variables, default, meaning. Limits rows: limit, default, variable, over it. */
const documented = [
  ...tableUnder('Environment').flatMap(([names, fallback]) => variables(names!).map((name) => ({ name, fallback: fallback! }))),
  ...tableUnder('Limits').flatMap(([, fallback, names]) => variables(names!).map((name) => ({ name, fallback: fallback! }))),
];

/** Read other than through FleetEnv: the climate lattice's folder (weather) and the console's area URLs. */
const READ_ELSEWHERE = ['FIELDCAST_CACHE_DIR', 'FIELDCAST_<AREA>_URL'];

describe('docs/operations.md against env.ts', () => {
  it('documents every variable FleetEnv reads, and no other', () => {
    const names = new Set(documented.map((d) => d.name));
    expect(Object.keys(FleetEnv.shape).filter((name) => !names.has(name))).toEqual([]);
    expect([...names].filter((name) => !(name in FleetEnv.shape) && !READ_ELSEWHERE.includes(name))).toEqual([]);
  });

  const defaults = parseEnv(FleetEnv, {});
  // each variable where it is told first (BODY_LIMIT's `1mb` in the Environment table, its 1 MB in Limits)
  const first = documented.filter((d, i) => d.name in FleetEnv.shape && documented.findIndex((e) => e.name === d.name) === i);
  it.each(first.map((d) => [d.name, d.fallback]))('%s: the default it tells (%s) is env.ts’s', (name, fallback) => {
    const value = defaults[name as keyof FleetEnv];
    // a literal, as the variable would be set (`1mb`, `on`), or a number as the Limits table writes it (1,000)
    // (`<data dir>/sync` is worked out, not a value)
    const literal = /^`([^`<]+)`$/.exec(fallback)?.[1] ?? (/^[\d,]+$/.test(fallback) ? fallback.replaceAll(',', '') : undefined);
    if (literal !== undefined) expect(parseEnv(FleetEnv, { [name]: literal })[name as keyof FleetEnv]).toEqual(value);
    // unset, or worked out where it is used (a port by mode, a directory under the data dir): no default here
    else expect([undefined, []]).toContainEqual(value);
  });
});
