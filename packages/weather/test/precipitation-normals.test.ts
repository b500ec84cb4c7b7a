// The synthetic world's precipitation against published 1991-2020 normals of wet tropical,
// monsoon, desert, continental, maritime, Mediterranean and humid subtropical places
// (precipitation-normals-data.ts): annual totals and the wet and dry seasons, from the hourly
// precipitation_rate the endpoints serve, 2016-2024. The climate's coefficients are global
// (src/synthetic/precipitation-coefficients.ts), fitted by scripts/fit-precipitation.ts to a gridded
// climatology (docs/decisions/0087-precipitation-fitted-to-a-global-climatology.md); no fit reads
// these places, so each is a check of the climate where it never looked.
import { SyntheticSource } from '../src/index.js';
import { cellClimate } from '../src/synthetic/geoclimate.js';
import { precipitationClimateAt, WETTEST_MONTH_MM } from '../src/synthetic/precipitation-climate.js';
import { PRECIPITATION_NORMALS, type PrecipitationNormal, precipitationOf } from './precipitation-normals-data.js';

const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });

/**
 * Annual totals within this factor of the normal (either way), or within SLACK_MM of it (dry
 * places, where one storm is tens of mm). A station is a point and the fit's climatology a mean
 * over 2.5 degree cells: a factor, not a percentage.
 */
const ANNUAL_FACTOR = 2.5;
const SLACK_MM = 100;
/** A desert's annual total stays below this, mm. */
const DESERT_MAX_MM = 400;
/**
 * Seasons are checked where the normals have one: the wetter of January and July at least
 * 50 mm and (wet + 3) / (dry + 3) at least 3. The model must make the same month the wetter, by
 * (wet + 3) / (dry + 3) of at least 1.5.
 */
const SEASON_MIN_WET_MM = 50;
const SEASON_MIN_RATIO = 3;
const MODEL_MIN_RATIO = 1.5;

const measured = new Map<string, { months: number[]; annual: number }>();
const of = (p: PrecipitationNormal) => {
  let m = measured.get(p.name);
  if (!m) measured.set(p.name, (m = precipitationOf(source, p.lat, p.lon)));
  return m;
};

const annualWithin = (p: PrecipitationNormal) => {
  const a = of(p).annual;
  if (Math.abs(a - p.annual) <= SLACK_MM) return;
  expect(a / p.annual).toBeGreaterThanOrEqual(1 / ANNUAL_FACTOR);
  expect(a / p.annual).toBeLessThanOrEqual(ANNUAL_FACTOR);
};

/** The wetter of January and July where the normals have a wet season (SEASON_MIN_WET_MM, SEASON_MIN_RATIO), else null. */
const wetMonthOf = (p: PrecipitationNormal): 'January' | 'July' | null => {
  const wet = Math.max(p.january, p.july),
    dry = Math.min(p.january, p.july);
  if (wet < SEASON_MIN_WET_MM || (wet + 3) / (dry + 3) < SEASON_MIN_RATIO) return null;
  return p.july > p.january ? 'July' : 'January';
};
const wetSeasonHolds = (p: PrecipitationNormal) => {
  const m = of(p);
  const [wet, dry] = wetMonthOf(p) === 'July' ? [m.months[6]!, m.months[0]!] : [m.months[0]!, m.months[6]!];
  expect((wet + 3) / (dry + 3)).toBeGreaterThanOrEqual(MODEL_MIN_RATIO);
};

/**
 * Places the climate misses, measured 2016-2024: model annual (January, July) against the normal,
 * mm. Expected failures, so that fixing one shows. The climate has one annual harmonic peaking in
 * July or January, so the plains' May-June maximum is read off a July that the 2.5 degree
 * climatology itself gives lower than the stations (Kansas City's cell 101 mm); the Bengal delta's
 * and Santiago's and Córdoba's cells lie on steep gradients the terms resolve only in part.
 */
const ANNUAL_MISSES = new Set([
  'Kolkata', // 536 (0, 148) against 1,650 (12, 340)
  'Kansas City', // 286 (19, 31) against 1,040 (30, 110)
  'Santiago de Chile', // 843 (21, 158) against 280 (1, 65)
  'Córdoba, Argentina', // 259 (44, 6) against 800 (120, 10)
  'Oklahoma City', // 326 (22, 46) against 920 (33, 75)
]);
/** Wet seasons the climate misses (model January, July against the normals'), mm. */
const SEASON_MISSES = new Set([
  'São Paulo', // 104, 83 against 290, 50: the South Atlantic convergence zone's summer rain
]);

describe('synthetic precipitation against published normals (none of them fitted)', () => {
  it('covers wet tropics, monsoons, deserts, continental, maritime, Mediterranean and humid subtropical climates', () => {
    for (const kind of ['wet tropics', 'monsoon', 'desert', 'continental', 'maritime', 'mediterranean', 'humid subtropical'])
      expect(PRECIPITATION_NORMALS.filter((p) => p.kind === kind).length).toBeGreaterThanOrEqual(2);
    expect(PRECIPITATION_NORMALS.length).toBeGreaterThanOrEqual(50);
  });

  it('names only places of the normals among its expected misses', () => {
    const names = new Set(PRECIPITATION_NORMALS.map((p) => p.name));
    for (const n of [...ANNUAL_MISSES, ...SEASON_MISSES]) expect(names).toContain(n);
  });

  for (const p of PRECIPITATION_NORMALS) {
    const name = `${p.name} (${p.kind}): annual total within a factor of ${ANNUAL_FACTOR} (or ${SLACK_MM} mm) of ${p.annual} mm`;
    (ANNUAL_MISSES.has(p.name) ? it.failing : it)(name, () => annualWithin(p));
  }

  it.each(PRECIPITATION_NORMALS.filter((p) => p.kind === 'desert').map((p) => [p.name, p] as const))(
    'the %s desert stays dry over the year',
    (_name, p) => {
      expect(of(p).annual).toBeLessThan(DESERT_MAX_MM);
    },
  );

  const seasonal = PRECIPITATION_NORMALS.filter((p) => wetMonthOf(p) !== null);
  it('checks the seasons of monsoon, continental, Mediterranean and west-coast places', () => {
    expect(seasonal.map((p) => p.name)).toEqual(expect.arrayContaining(['Mumbai', 'Darwin', 'Ames, Iowa', 'Seattle', 'Perth']));
  });
  for (const p of seasonal)
    (SEASON_MISSES.has(p.name) ? it.failing : it)(`${p.name}: ${wetMonthOf(p)} is the wet season`, () => wetSeasonHolds(p));
});

describe('no climate wetter than the Earth knows', () => {
  // Mawsynram's annual normal, about 11,870 mm, is the wettest on record (WMO World Weather and
  // Climate Extremes Archive); a month of the climate is capped at WETTEST_MONTH_MM.
  it('gives no month over the cap anywhere, on a 4-degree lattice every second month', () => {
    let wettest = 0;
    for (let lat = -60; lat <= 70; lat += 4)
      for (let lon = -180; lon < 180; lon += 4) {
        const c = cellClimate([lat], [lon]);
        for (let i = 0; i < 6; i++) {
          const a = (2 * Math.PI * i) / 6;
          wettest = Math.max(wettest, precipitationClimateAt(c, 0, Math.cos(a), Math.sin(a)) * (365.24219 / 12));
        }
      }
    expect(wettest).toBeLessThanOrEqual(WETTEST_MONTH_MM + 1e-9);
  });

  it('keeps every place of the normals under the wettest year on record', () => {
    for (const p of PRECIPITATION_NORMALS) expect(of(p).annual).toBeLessThan(11_870);
  });
});
