// The synthetic world's precipitation against published 1991-2020 normals of wet tropical,
// monsoon, desert, continental and maritime places (precipitation-normals-data.ts): annual totals
// and the wet and dry seasons, from the hourly precipitation_rate the endpoints serve, 2016-2024.
// The climate's coefficients are global (src/synthetic/precipitation-coefficients.ts, fitted by
// scripts/fit-precipitation.ts, docs/decisions/0083-precipitation-climate.md).
import { SyntheticSource } from '../src/index.js';
import { PRECIPITATION_NORMALS, type PrecipitationNormal, precipitationOf } from './precipitation-normals-data.js';

const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });

/** Annual totals within this factor of the normal (either way), or within DRY_SLACK_MM of it (dry places, where one storm is tens of mm). */
const ANNUAL_FACTOR = 2;
const DRY_SLACK_MM = 75;
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
  if (Math.abs(a - p.annual) <= DRY_SLACK_MM) return;
  expect(a / p.annual).toBeGreaterThanOrEqual(1 / ANNUAL_FACTOR);
  expect(a / p.annual).toBeLessThanOrEqual(ANNUAL_FACTOR);
};

describe('synthetic precipitation against published normals', () => {
  it('covers wet tropics, monsoons, deserts, continental and maritime climates', () => {
    for (const kind of ['wet tropics', 'monsoon', 'desert', 'continental', 'maritime'])
      expect(PRECIPITATION_NORMALS.filter((p) => p.kind === kind).length).toBeGreaterThanOrEqual(2);
  });

  for (const p of PRECIPITATION_NORMALS) {
    const name = `${p.name} (${p.kind}): annual total within a factor of ${ANNUAL_FACTOR} (or ${DRY_SLACK_MM} mm) of ${p.annual} mm`;
    it(name, () => annualWithin(p));
  }

  it.each(PRECIPITATION_NORMALS.filter((p) => p.kind === 'desert').map((p) => [p.name, p] as const))(
    'the %s desert stays dry over the year',
    (_name, p) => {
      expect(of(p).annual).toBeLessThan(DESERT_MAX_MM);
    },
  );

  const seasonal = PRECIPITATION_NORMALS.filter((p) => {
    const wet = Math.max(p.january, p.july),
      dry = Math.min(p.january, p.july);
    return wet >= SEASON_MIN_WET_MM && (wet + 3) / (dry + 3) >= SEASON_MIN_RATIO;
  });
  it('checks the seasons of monsoon, continental and west-coast places', () => {
    expect(seasonal.map((p) => p.name)).toEqual(expect.arrayContaining(['Mumbai', 'Darwin', 'Ames, Iowa', 'Seattle']));
  });
  for (const p of seasonal) {
    const wetInJuly = p.july > p.january;
    const check = () => {
      const m = of(p);
      const [wet, dry] = wetInJuly ? [m.months[6]!, m.months[0]!] : [m.months[0]!, m.months[6]!];
      expect((wet + 3) / (dry + 3)).toBeGreaterThanOrEqual(MODEL_MIN_RATIO);
    };
    const name = `${p.name}: ${wetInJuly ? 'July' : 'January'} is the wet season`;
    it(name, check);
  }
});
