/**
 * Fits the monthly precipitation climate of the synthetic world (src/synthetic/geoclimate.ts
 * `precipitationFeatures`) to published normals and writes src/synthetic/precipitation-coefficients.ts:
 * docs/decisions/0083-precipitation-climate.md.
 *
 * With L = ln(P + 3) of a monthly total P in mm, each place of test/precipitation-normals-data.ts
 * gives two targets: the mean of L over its July and January normals, and half their difference
 * summer minus winter (July in the north, January in the south). Each is one least-squares fit
 * of the place's terms (least-squares.ts). Then FIT_ROUNDS rounds run the model (2016-2024, as
 * the test measures) and correct each place's targets by what the hourly rain field makes of the
 * climate (the noise's months, the capped boost): each month's L moves by goal - measured, at
 * most MAX_STEP a round, and not at all for a month the model leaves dry.
 * Deterministic: the same geography and data give the same numbers.
 *
 * Run: npx -y pnpm@10 exec tsx packages/weather/scripts/fit-precipitation.ts [--write]
 */
import { writeFileSync } from 'node:fs';
import { SyntheticSource } from '../src/index.js';
import { clearClimateNodes, PRECIPITATION_LOG_OFFSET_MM, precipitationFeaturesAt } from '../src/synthetic/geoclimate.js';
import { PRECIPITATION_MEAN, PRECIPITATION_SEASON } from '../src/synthetic/precipitation-coefficients.js';
import { PRECIPITATION_NORMALS, precipitationOf } from '../test/precipitation-normals-data.js';
import { leastSquares } from './least-squares.js';

const FIT_ROUNDS = 6;
const MAX_STEP = 0.5;
const DRY_MM = 1;
const clamp = (x: number) => Math.max(-MAX_STEP, Math.min(MAX_STEP, x));
const L = (mm: number) => Math.log(Math.max(0, mm) + PRECIPITATION_LOG_OFFSET_MM);

// Only the fitted places: the held-out ones check the climate between them.
const places = PRECIPITATION_NORMALS.filter((p) => !p.heldOut);
const summerOf = (p: (typeof places)[number], jan: number, jul: number): [number, number] => (p.lat >= 0 ? [jul, jan] : [jan, jul]);
const targets = places.map((p) => {
  const [summer, winter] = summerOf(p, L(p.january), L(p.july));
  return { mean: (summer + winter) / 2, season: (summer - winter) / 2 };
});

const round3 = (x: number) => Math.round(x * 1000) / 1000;
function fitForm<T extends Record<string, number>>(pick: (f: ReturnType<typeof precipitationFeaturesAt>) => T, b: number[]): T {
  const feats = places.map((p) => pick(precipitationFeaturesAt(p.lat, p.lon)));
  const keys = Object.keys(feats[0]!) as (keyof T)[];
  const x = leastSquares(
    feats.map((f) => keys.map((k) => f[k]!)),
    b,
    places.map(() => 1),
  );
  return Object.fromEntries(keys.map((k, i) => [k, round3(x[i]!)])) as T;
}

let mean = fitForm(
  (f) => f.mean,
  targets.map((t) => t.mean),
);
let season = fitForm(
  (f) => f.season,
  targets.map((t) => t.season),
);
for (let round = 0; round < FIT_ROUNDS; round++) {
  Object.assign(PRECIPITATION_MEAN, mean);
  Object.assign(PRECIPITATION_SEASON, season);
  clearClimateNodes();
  const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });
  places.forEach((p, i) => {
    const m = precipitationOf(source, p.lat, p.lon);
    // Each month's correction, in L, capped (MAX_STEP a round); none for a month the model
    // leaves dry (under DRY_MM): there the cloud is too rarely thick for any climate to rain
    // (the boost's cap), and chasing the goal would only inflate the coefficients.
    const [mSummer, mWinter] = summerOf(p, m.months[0]!, m.months[6]!);
    const [gSummer, gWinter] = summerOf(p, L(p.january), L(p.july));
    const step = (measured: number, goalL: number) => (measured < DRY_MM ? 0 : clamp(goalL - L(measured)));
    const dS = step(mSummer, gSummer),
      dW = step(mWinter, gWinter);
    // The annual total too (its wettest months need not be January or July: Tokyo's are June
    // and September), in L of the mean month; half weight against the two months.
    const dA = m.annual < 12 * DRY_MM ? 0 : clamp(L(p.annual / 12) - L(m.annual / 12));
    targets[i]!.mean += (dS + dW + 2 * dA) / 4;
    targets[i]!.season += (dS - dW) / 2;
  });
  mean = fitForm(
    (f) => f.mean,
    targets.map((t) => t.mean),
  );
  season = fitForm(
    (f) => f.season,
    targets.map((t) => t.season),
  );
}

const block = (name: string, c: Record<string, number>) =>
  `export const ${name} = {\n${Object.entries(c)
    .map(([k, v]) => `  ${k}: ${v},`)
    .join('\n')}\n};\n`;
const source = `/**
 * Coefficients of the monthly precipitation climate on the terms of geoclimate.ts
 * \`precipitationFeatures\` (docs/decisions/0083-precipitation-climate.md).
 *
 * Written by packages/weather/scripts/fit-precipitation.ts (do not edit by hand): least squares
 * on the published normals of ${places.length} places (test/precipitation-normals-data.ts).
 */
${block('PRECIPITATION_MEAN', mean)}
${block('PRECIPITATION_SEASON', season)}
export type PrecipitationMeanTerms = typeof PRECIPITATION_MEAN;
export type PrecipitationSeasonTerms = typeof PRECIPITATION_SEASON;
`;
if (process.argv.includes('--write')) {
  writeFileSync(new URL('../src/synthetic/precipitation-coefficients.ts', import.meta.url), source);
  console.log('wrote src/synthetic/precipitation-coefficients.ts');
} else console.log(source);
