// The synthetic world's climate against published 1991-2020 station normals: the mean of the
// coldest month, the warmest month and the year over 2016-2024, from the daily extremes the
// endpoints read. The model's coefficients are global (src/synthetic/geoclimate.ts); nothing
// here or there is specific to a place.
import { SyntheticSource } from '../src/index.js';
import { climateOf, EXTRA_PLACES, HELD_OUT_PLACES, NORMALS, type NormalsPlace } from './climate-normals-data.js';

const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });

/** Places outside the file, fitted with less weight, are held to this. */
const EXTRA_TOLERANCE_K = 4;
async function errors(p: NormalsPlace) {
  const c = await climateOf(source, p.lat, p.lon);
  return { coldest: Math.abs(c.coldest - p.coldest), warmest: Math.abs(c.warmest - p.warmest), annual: Math.abs(c.annual - p.annual) };
}

describe('synthetic climate against the normals file', () => {
  it('checks every place of the file', () => {
    expect(NORMALS.places.length).toBeGreaterThanOrEqual(14);
  });

  it.each(NORMALS.places.map((p) => [p.name, p] as const))(
    '%s: coldest month, warmest month and year within the tolerances',
    async (_name, p) => {
      const e = await errors(p);
      expect(e.coldest).toBeLessThanOrEqual(NORMALS.tolerance.coldest);
      expect(e.warmest).toBeLessThanOrEqual(NORMALS.tolerance.warmest);
      expect(e.annual).toBeLessThanOrEqual(NORMALS.tolerance.annual);
    },
  );
});

describe('synthetic climate at places outside the file', () => {
  const within = async (p: NormalsPlace) => {
    const e = await errors(p);
    expect(Math.max(e.coldest, e.warmest, e.annual)).toBeLessThanOrEqual(EXTRA_TOLERANCE_K);
  };
  // Reykjavik and Anchorage, high-latitude coasts whose winters hang on the sea around them,
  // are held by the maritime term (docs/decisions/0080-geographic-temperature-climate.md).
  for (const p of EXTRA_PLACES) it(`${p.name}: within ${EXTRA_TOLERANCE_K} K`, () => within(p));
});

/**
 * Stations the fit never sees (HELD_OUT_PLACES): these hold the root mean square error, K, at its
 * measured level with a margin (measured 2.7 coldest, 1.8 warmest, 1.9 year with the sea upwind
 * in the fit, docs/decisions/0088-temperature-with-the-sea-upwind.md; 6.9, 3.6 and 4.3 before):
 * a change that generalises worse shows, one that generalises better can lower the bounds.
 */
const HELD_OUT_RMS_K = { coldest: 3.3, warmest: 2.2, annual: 2.5 };

describe('synthetic climate at stations the fit never sees', () => {
  it(`${HELD_OUT_PLACES.length} held-out stations: RMS error within ${HELD_OUT_RMS_K.coldest} / ${HELD_OUT_RMS_K.warmest} / ${HELD_OUT_RMS_K.annual} K`, async () => {
    expect(HELD_OUT_PLACES.length).toBeGreaterThanOrEqual(12);
    const sq = { coldest: 0, warmest: 0, annual: 0 };
    for (const p of HELD_OUT_PLACES) {
      const c = await climateOf(source, p.lat, p.lon);
      sq.coldest += (c.coldest - p.coldest) ** 2;
      sq.warmest += (c.warmest - p.warmest) ** 2;
      sq.annual += (c.annual - p.annual) ** 2;
    }
    const n = HELD_OUT_PLACES.length;
    expect(Math.sqrt(sq.coldest / n)).toBeLessThanOrEqual(HELD_OUT_RMS_K.coldest);
    expect(Math.sqrt(sq.warmest / n)).toBeLessThanOrEqual(HELD_OUT_RMS_K.warmest);
    expect(Math.sqrt(sq.annual / n)).toBeLessThanOrEqual(HELD_OUT_RMS_K.annual);
  });
});
