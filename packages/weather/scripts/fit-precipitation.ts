/**
 * Fits the monthly precipitation climate of the synthetic world (src/synthetic/geoclimate.ts
 * `precipitationFeatures`) to a global climatology and writes
 * src/synthetic/precipitation-coefficients.ts:
 * docs/decisions/0087-precipitation-fitted-to-a-global-climatology.md.
 *
 * The climatology is the July and December precipitation over the land and over the sea of 2.5
 * degree cells (test/precipitation-normals-data.ts `PRECIPITATION_GRID`, Legates & Willmott 1989).
 * With L = ln(P + 3), P a monthly total in mm, the climate is L = m + s cos(angle from mid-July),
 * m and s linear forms of a place's terms; each part of a cell (its land, its sea) gives two rows,
 * July (m + s) and December (m + s cos(153 days)), on the terms averaged over the part's points,
 * weighted by the part's area, the sea's by SEA_WEIGHT: its values are ocean estimates, not
 * gauges, and it is there so that coasts, which the climate reaches from nodes over the sea too,
 * are not left to the extrapolation of a land-only fit. One ridge-regularised least-squares fit (RIDGE) of both forms together: the bands'
 * terms overlap, and the ridge keeps the fit from trading them off where no cell tells them apart.
 * No station normal is read: test/precipitation-normals.test.ts checks the result against them.
 * Deterministic: the same geography and data give the same numbers.
 *
 * Run: npx -y pnpm@10 exec tsx packages/weather/scripts/fit-precipitation.ts [--write]
 */
import { writeFileSync } from 'node:fs';
import { earthGeography } from '@fieldcast/geography';
import { type PrecipitationFeatures, precipitationFeaturesAt } from '../src/synthetic/geoclimate.js';
import { PRECIPITATION_LOG_OFFSET_MM } from '../src/synthetic/precipitation-climate.js';
import { PRECIPITATION_GRID } from '../test/precipitation-normals-data.js';
import { leastSquares } from './least-squares.js';

const RIDGE = 1;
const SEA_WEIGHT = 0.25;
const L = (mm: number) => Math.log(Math.max(0, mm) + PRECIPITATION_LOG_OFFSET_MM);
const YEAR_DAYS = 365.2422;
/** cos of the angle from mid-July (day 196.5) to mid-December (day 349.5). */
const DECEMBER = Math.cos((2 * Math.PI * (349.5 - 196.5)) / YEAR_DAYS);

const geo = earthGeography();
const row = (f: PrecipitationFeatures, terms: object): number[] => [
  ...f.bands.flatMap((w) => f.fetch.map((x) => w * x)),
  ...Object.values(terms as Record<string, number>),
];

// The points of a cell's land or sea: a quarter of a cell from its centre, those of the part.
const q = PRECIPITATION_GRID.cellDeg / 4;
interface Part {
  lat: number;
  overLand: boolean;
  mean: number[];
  season: number[];
  july: number;
  december: number;
  weight: number;
}
const parts: Part[] = [];
let meanKeys: string[] = [],
  seasonKeys: string[] = [],
  bandCount = 0,
  fetchCount = 0;
const average = (rows: number[][]) => rows[0]!.map((_, k) => rows.reduce((s, r) => s + r[k]!, 0) / rows.length);
for (const c of PRECIPITATION_GRID.cells) {
  for (const [overLand, july, december, share] of [
    [true, c.julyLand, c.decemberLand, c.land],
    [false, c.julySea, c.decemberSea, 1 - c.land],
  ] as const) {
    if (july === null || december === null) continue;
    const points: PrecipitationFeatures[] = [];
    for (const dy of [-q, q])
      for (const dx of [-q, q])
        if (geo.landFractionAt(c.lat + dy, c.lon + dx) >= 0.5 === overLand) points.push(precipitationFeaturesAt(c.lat + dy, c.lon + dx));
    if (points.length === 0) continue;
    ({
      bands: { length: bandCount },
      fetch: { length: fetchCount },
    } = points[0]!);
    meanKeys = Object.keys(points[0]!.mean);
    seasonKeys = Object.keys(points[0]!.season);
    parts.push({
      lat: c.lat,
      overLand,
      mean: average(points.map((f) => row(f, f.mean))),
      season: average(points.map((f) => row(f, f.season))),
      july: L(july),
      december: L(december),
      weight: Math.cos((c.lat * Math.PI) / 180) * share * (overLand ? 1 : SEA_WEIGHT),
    });
  }
}
const landCells = PRECIPITATION_GRID.cells.filter((c) => c.julyLand !== null).length;

const rows: number[][] = [],
  targets: number[] = [],
  weights: number[] = [];
for (const c of parts) {
  rows.push([...c.mean, ...c.season]);
  targets.push(c.july);
  rows.push([...c.mean, ...c.season.map((v) => v * DECEMBER)]);
  targets.push(c.december);
  weights.push(c.weight, c.weight);
}
const x = leastSquares(rows, targets, weights, RIDGE).map((v) => Math.round(v * 1000) / 1000);

// The fit's skill over the land of its cells: area-weighted bias and RMSE of L by latitude band.
const nMean = parts[0]!.mean.length;
const dot = (a: number[], from: number) => a.reduce((s, v, k) => s + v * x[from + k]!, 0);
for (const [south, north] of [
  [-90, -60],
  [-60, -30],
  [-30, 0],
  [0, 30],
  [30, 60],
  [60, 90],
]) {
  let w = 0,
    bias = 0,
    sq = 0;
  for (const c of parts.filter((c) => c.overLand && c.lat >= south! && c.lat < north!)) {
    const m = dot(c.mean, 0),
      s = dot(c.season, nMean);
    for (const d of [m + s - c.july, m + DECEMBER * s - c.december]) {
      w += c.weight;
      bias += c.weight * d;
      sq += c.weight * d * d;
    }
  }
  console.log(`${south}..${north}: bias ${(bias / w).toFixed(2)}, RMSE ${Math.sqrt(sq / w).toFixed(2)} (ln(P + 3), July and December)`);
}

const form = (from: number, keys: string[]) => {
  const bands = Array.from({ length: bandCount }, (_, b) => x.slice(from + b * fetchCount, from + (b + 1) * fetchCount));
  const terms = Object.fromEntries(keys.map((k, i) => [k, x[from + bandCount * fetchCount + i]!]));
  return `{\n  bands: [\n${bands.map((b) => `    [${b.join(', ')}],`).join('\n')}\n  ],\n  terms: {\n${Object.entries(terms)
    .map(([k, v]) => `    ${k}: ${v},`)
    .join('\n')}\n  },\n}`;
};
const source = `/**
 * Coefficients of the monthly precipitation climate on the terms of geoclimate.ts
 * \`precipitationFeatures\` (docs/decisions/0087-precipitation-fitted-to-a-global-climatology.md):
 * per latitude band and for the monsoon (a row each), the coefficients of 1 and of the sea upwind
 * in eight directions at three reaches (geoclimate.ts \`seaFetch\`); then those of the other terms.
 *
 * Written by packages/weather/scripts/fit-precipitation.ts (do not edit by hand): a ridge-regularised
 * least-squares fit to the July and December precipitation over the land of ${landCells} cells of
 * ${PRECIPITATION_GRID.cellDeg} degrees and, lightly, over the sea (Legates & Willmott 1989); no station normal is fitted.
 */
export const PRECIPITATION_MEAN = ${form(0, meanKeys)};

export const PRECIPITATION_SEASON = ${form(nMean, seasonKeys)};

export type PrecipitationMeanTerms = typeof PRECIPITATION_MEAN.terms;
export type PrecipitationSeasonTerms = typeof PRECIPITATION_SEASON.terms;
`;
if (process.argv.includes('--write')) {
  writeFileSync(new URL('../src/synthetic/precipitation-coefficients.ts', import.meta.url), source);
  console.log('wrote src/synthetic/precipitation-coefficients.ts');
} else console.log(source);
