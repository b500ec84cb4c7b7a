/**
 * Prints the synthetic world's precipitation at the places of test/precipitation-normals-data.ts:
 * annual, January and July totals (mean of 2016-2024) against the published normals.
 * Run: npx -y pnpm@10 exec tsx packages/weather/scripts/precipitation-table.ts
 */
import { SyntheticSource } from '../src/index.js';
import { PRECIPITATION_NORMALS, precipitationOf } from '../test/precipitation-normals-data.js';

const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });
console.log('| place | kind | year, mm (normal) | January (normal) | July (normal) |');
console.log('|---|---|---|---|---|');
for (const p of PRECIPITATION_NORMALS) {
  const c = precipitationOf(source, p.lat, p.lon);
  const r = (x: number) => Math.round(x);
  console.log(
    `| ${p.name} | ${p.kind} | ${r(c.annual)} (${p.annual}) | ${r(c.months[0]!)} (${p.january}) | ${r(c.months[6]!)} (${p.july}) |`,
  );
}
