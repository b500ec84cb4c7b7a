/**
 * Fits the coefficients of the synthetic world's temperature climate (src/synthetic/geoclimate.ts
 * `regressionTerms`) and writes them to src/synthetic/geoclimate-coefficients.ts:
 * docs/decisions/0080-geographic-temperature-climate.md.
 *
 * Targets, each a coldest-month and a warmest-month mean brought to sea level with the lapse
 * rate over the height the model gives the place (the geography grid's elevation), so the fitted
 * form predicts what the model subtracts the lapse from:
 * - the stations: the normals file's places, the further places the tests check and the fitted
 *   half of the further stations (test/climate-normals-data.ts; never HELD_OUT_PLACES, whose
 *   residuals are only reported);
 * - the land and the open sea of every 5 degree cell of the July and December climatology
 *   (TEMPERATURE_GRID), through the model's own annual cycle (cellTarget).
 * Each form is the weighted least-squares solution (least-squares.ts), refined by running the
 * model at the stations (FIT_ROUNDS). Deterministic: the same geography file and data give the
 * same numbers. docs/decisions/0081-climate-fit-reproducible-and-global.md.
 *
 * Run: npx -y pnpm@10 exec tsx packages/weather/scripts/fit-geoclimate.ts [--write]
 * (without --write it prints the coefficients and the fit residuals only).
 */
import { writeFileSync } from 'node:fs';
import { earthGeography } from '@fieldcast/geography';
import { LAPSE_RATE_K_PER_M } from '../src/synthetic/climate.js';
import { COLDEST, type TemperatureTerms, WARMEST } from '../src/synthetic/geoclimate-coefficients.js';
import {
  clearClimateNodes,
  type ClimateForm,
  climateInputsAt,
  lagDaysOf,
  latitudeBands,
  regressionTerms,
} from '../src/synthetic/geoclimate.js';
import { SyntheticSource } from '../src/index.js';
import { leastSquares } from './least-squares.js';
import {
  climateOf,
  EXTRA_PLACES,
  FURTHER_FIT_PLACES,
  HELD_OUT_PLACES,
  NORMALS,
  type NormalsPlace,
  TEMPERATURE_GRID,
} from '../test/climate-normals-data.js';

const geo = earthGeography();
/**
 * A station weighs as much as STATION_WEIGHT grid cells at the equator (FURTHER_FIT_PLACES); the
 * tests' places more (below). With the sea upwind per latitude band the terms are many (about
 * 290 a form): weighted as heavily as the stations once were (300) they would pass through every
 * station exactly and bend between them; at 3 the grid sets the climate, the stations pull it
 * toward the 1991-2020 normals the tests hold, and the held-out stations are met better
 * (docs/decisions/0088-temperature-with-the-sea-upwind.md).
 */
const STATION_WEIGHT = 3;
/**
 * A sea cell weighs this much of a land cell: the areas serve land, but the sea sets the
 * coasts' climate and the land-sea contrast the maps show.
 */
const SEA_WEIGHT = 0.3;
/** The normals file's places, held to 2-2.5 K by the tests, weigh FILE_FACTOR stations each. */
const FILE_FACTOR = 20;
/** The tests' further places, held to 4 K, weigh EXTRA_FACTOR stations each. */
const EXTRA_FACTOR = 5;
const keys = Object.keys(regressionTerms(climateInputsAt(geo, 0, 0))) as (keyof TemperatureTerms)[];
/** A place's row: its named terms, then each latitude band's weight times 1 and the sea fetch (geoclimate.ts ClimateForm). */
const rowOf = (g: ReturnType<typeof climateInputsAt>): number[] => {
  const t = regressionTerms(g);
  const fetch = [1, ...g.seaFetch];
  return [...keys.map((k) => t[k]), ...latitudeBands(g.lat).flatMap((w) => fetch.map((x) => w * x))];
};
const termRow = (lat: number, lon: number) => rowOf(climateInputsAt(geo, lat, lon));
const ROW_LENGTH = termRow(0, 0).length;
const FETCH_LENGTH = climateInputsAt(geo, 0, 0).seaFetch.length + 1;

interface Target {
  name: string;
  row: number[];
  /** coldest-month and warmest-month means at sea level, degC */
  coldest: number;
  warmest: number;
  weight: number;
}

const seaLevel = (lat: number, lon: number, v: number) => v + LAPSE_RATE_K_PER_M * Math.max(0, geo.elevationAt(lat, lon));
const stationTarget = (p: NormalsPlace): Target => ({
  name: p.name,
  row: termRow(p.lat, p.lon),
  coldest: seaLevel(p.lat, p.lon, p.coldest),
  warmest: seaLevel(p.lat, p.lon, p.warmest),
  weight: STATION_WEIGHT * (NORMALS.places.includes(p) ? FILE_FACTOR : EXTRA_PLACES.includes(p) ? EXTRA_FACTOR : 1),
});

/** Day of year of mid-July and mid-December, and of the June solstice. */
const MID_JULY = 196.5,
  MID_DECEMBER = 349.5,
  SOLSTICE = 172;
const W = (2 * Math.PI) / 365.2422;

/**
 * A grid cell's targets: its land points (every degree, land share >= 0.5) averaged, terms and
 * sea-level values alike. July and December become the coldest and warmest months through the
 * model's own annual cycle (a cosine peaking lagDays after the solstice): with cJ, cD the cosines
 * of mid-July and mid-December from the peak, B = (T_jul - T_dec) / (cJ - cD) and
 * m = T_jul - B cJ, the months are m -+ |B|. The maps are older than the stations' 1991-2020
 * (the derivation measured them `stationCheck.meanK` colder at the stations): that is added back.
 */
function cellTarget(lat: number, lon: number, july: number, december: number, overLand: boolean, weight: number): Target | null {
  const half = TEMPERATURE_GRID.cellDeg / 2;
  const row = new Array<number>(ROW_LENGTH).fill(0);
  let n = 0,
    coldest = 0,
    warmest = 0;
  const offset = -TEMPERATURE_GRID.stationCheck.meanK;
  for (let y = lat - half + 0.5; y < lat + half; y++) {
    for (let x = lon - half + 0.5; x < lon + half; x++) {
      if (geo.landFractionAt(y, x) >= 0.5 !== overLand) continue;
      const g = climateInputsAt(geo, y, x);
      rowOf(g).forEach((v, q) => (row[q]! += v));
      const lag = lagDaysOf(g);
      const cJ = Math.cos(W * (MID_JULY - SOLSTICE - lag)),
        cD = Math.cos(W * (MID_DECEMBER - SOLSTICE - lag));
      const b = (july - december) / (cJ - cD),
        m = july + offset - b * cJ;
      coldest += seaLevel(y, x, m - Math.abs(b));
      warmest += seaLevel(y, x, m + Math.abs(b));
      n++;
    }
  }
  if (n === 0) return null;
  return {
    name: `cell ${lat} ${lon} ${overLand ? 'land' : 'sea'}`,
    row: row.map((v) => v / n),
    coldest: coldest / n,
    warmest: warmest / n,
    weight: weight * Math.cos((lat * Math.PI) / 180),
  };
}

const stations: NormalsPlace[] = [...NORMALS.places, ...EXTRA_PLACES, ...FURTHER_FIT_PLACES];
const targets: Target[] = [
  ...stations.map(stationTarget),
  ...TEMPERATURE_GRID.cells.flatMap((c) => {
    const out: Target[] = [];
    const onLand = c.julyLand !== null && c.decemberLand !== null ? cellTarget(c.lat, c.lon, c.julyLand, c.decemberLand, true, 1) : null;
    // Open sea only: where sea ice forms (poleward of 60 degrees) the model adds its own cooling.
    const atSea =
      c.julySea !== null && c.decemberSea !== null && Math.abs(c.lat) < 60
        ? cellTarget(c.lat, c.lon, c.julySea, c.decemberSea, false, SEA_WEIGHT)
        : null;
    if (onLand) out.push(onLand);
    if (atSea) out.push(atSea);
    return out;
  }),
];
const rows = targets.map((t) => t.row);
const weights = targets.map((t) => t.weight);
const round = (x: number) => Math.round(x * 1000) / 1000;
/** One form fitted to the targets' picked value: the named terms' coefficients, then the bands'. */
const fit = (pick: (t: Target) => number): ClimateForm<TemperatureTerms> => {
  const x = leastSquares(rows, targets.map(pick), weights).map(round);
  const bands = latitudeBands(0).map((_, b) => x.slice(keys.length + b * FETCH_LENGTH, keys.length + (b + 1) * FETCH_LENGTH));
  return { bands, terms: Object.fromEntries(keys.map((k, i) => [k, x[i]!])) as TemperatureTerms };
};
const predict = (c: ClimateForm<TemperatureTerms>, row: number[]) => {
  const x = [...keys.map((k) => c.terms[k]), ...c.bands.flat()];
  return row.reduce((s, v, i) => s + x[i]! * v, 0);
};

/**
 * The model's coldest and warmest months at a station differ from the fitted form's prediction
 * minus the lapse by the weather (the coldest of twelve noisy monthly means), the cycle's
 * shape and lag, the equatorial taper and the interpolation between lattice nodes. So the
 * stations' targets are corrected by what the model itself gives: each round runs the model
 * with the current coefficients (2016-2024, as the tests measure), takes delta = measured -
 * predicted, and refits to normal - delta. FIT_ROUNDS fixed rounds keep the result
 * deterministic; the corrections settle within a few tenths of a kelvin.
 */
const FIT_ROUNDS = 4;
let coldest = fit((t) => t.coldest),
  warmest = fit((t) => t.warmest);
for (let round = 0; round < FIT_ROUNDS; round++) {
  Object.assign(COLDEST, coldest);
  Object.assign(WARMEST, warmest);
  clearClimateNodes();
  const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });
  for (let i = 0; i < stations.length; i++) {
    const p = stations[i]!,
      t = targets[i]!;
    const m = await climateOf(source, p.lat, p.lon);
    t.coldest = p.coldest - (m.coldest - predict(coldest, t.row));
    t.warmest = p.warmest - (m.warmest - predict(warmest, t.row));
  }
  coldest = fit((t) => t.coldest);
  warmest = fit((t) => t.warmest);
}

console.log('station | coldest residual | warmest residual (K, sea level)');
let gridC = 0,
  gridW = 0,
  gridN = 0;
targets.forEach((t) => {
  const rc = predict(coldest, t.row) - t.coldest,
    rw = predict(warmest, t.row) - t.warmest;
  if (t.weight >= STATION_WEIGHT) console.log(`${t.name} | ${rc.toFixed(2)} | ${rw.toFixed(2)}`);
  else {
    gridC += t.weight * rc * rc;
    gridW += t.weight * rw * rw;
    gridN += t.weight;
  }
});
console.log(
  `grid cells (area-weighted RMS): coldest ${Math.sqrt(gridC / gridN).toFixed(2)} K, warmest ${Math.sqrt(gridW / gridN).toFixed(2)} K`,
);
console.log('held-out place | coldest residual | warmest residual (K, sea level)');
let sumC = 0,
  sumW = 0;
for (const p of HELD_OUT_PLACES) {
  const t = stationTarget(p);
  const rc = predict(coldest, t.row) - t.coldest,
    rw = predict(warmest, t.row) - t.warmest;
  sumC += rc * rc;
  sumW += rw * rw;
  console.log(`${p.name} | ${rc.toFixed(2)} | ${rw.toFixed(2)}`);
}
const rms = (s: number) => Math.sqrt(s / HELD_OUT_PLACES.length).toFixed(2);
console.log(`held-out RMS: coldest ${rms(sumC)} K, warmest ${rms(sumW)} K`);

const block = (name: string, c: ClimateForm<TemperatureTerms>, typed: boolean) =>
  `export const ${name}${typed ? ': typeof COLDEST' : ''} = {\n  bands: [\n${c.bands.map((b) => `    [${b.join(', ')}],`).join('\n')}\n  ],\n  terms: {\n${keys.map((k) => `    ${k}: ${c.terms[k]},`).join('\n')}\n  },\n};\n`;
const source = `/**
 * Coefficients of the coldest-month and warmest-month mean temperatures at sea level, degC, on
 * the geographic terms of geoclimate.ts \`regressionTerms\` and, per latitude band, on 1 and the
 * sea upwind in eight directions at three reaches (ClimateForm; docs/architecture.md §6,
 * docs/decisions/0080-geographic-temperature-climate.md, 0088-temperature-with-the-sea-upwind.md).
 *
 * Written by packages/weather/scripts/fit-geoclimate.ts (do not edit by hand): a least-squares
 * fit to published station normals (${stations.length} stations) and the July and December means of ${targets.length - stations.length} land and open-sea parts of 5 degree cells; the same numbers serve every place on Earth.
 */
${block('COLDEST', coldest, false)}
${block('WARMEST', warmest, true)}
export type TemperatureTerms = typeof COLDEST.terms;
`;
if (process.argv.includes('--write')) {
  writeFileSync(new URL('../src/synthetic/geoclimate-coefficients.ts', import.meta.url), source);
  console.log('wrote src/synthetic/geoclimate-coefficients.ts');
} else console.log(source);
