/**
 * Prints the synthetic world's climate at the places of the normals file and at the extra places
 * of test/climate-normals.test.ts: mean of the coldest month, the warmest month and the year over
 * 2016-2024 from the daily extremes the endpoints read ((Tmax + Tmin) / 2 of dailyExtremesAt).
 * Run: npx -y pnpm@10 exec tsx packages/weather/scripts/normals-table.ts
 */
import { SyntheticSource } from '../src/index.js';
import { climateOf, EXTRA_PLACES, NORMALS } from '../test/climate-normals-data.js';

const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });
const rows: string[] = [];
let pass = 0;
const all = [
  ...NORMALS.places.map((p) => ({ ...p, tol: NORMALS.tolerance })),
  ...EXTRA_PLACES.map((p) => ({ ...p, tol: { coldest: 4, warmest: 4, annual: 4 } })),
];
for (const p of all) {
  const c = await climateOf(source, p.lat, p.lon);
  const ok =
    Math.abs(c.coldest - p.coldest) <= p.tol.coldest &&
    Math.abs(c.warmest - p.warmest) <= p.tol.warmest &&
    Math.abs(c.annual - p.annual) <= p.tol.annual;
  if (ok) pass++;
  rows.push(
    `| ${p.name} | ${c.coldest.toFixed(1)} (${p.coldest}) | ${c.warmest.toFixed(1)} (${p.warmest}) | ${c.annual.toFixed(1)} (${p.annual}) | ${ok ? 'ok' : 'OUT'} |`,
  );
}
console.log(rows.join('\n'));
console.log(`${pass} of ${all.length} within tolerance`);
