// The ingredients of severe convection in the synthetic world (src/synthetic/convective-ingredients.ts,
// docs/decisions/0085-severe-weather-ingredients.md): moisture from a warm sea in reach, the marine
// inversion off a cold sea, steep lapse rates in the lee of high ground, and deep shear that
// follows the jet through the year.
import { deepShear, lowLevelMoisture, marineStability, steepLapseRates } from '../src/synthetic/convective-ingredients.js';

/** Hours since 1970 of the 15th of a month of 2025, 21Z (afternoon over North America). */
const mid = (month: number) => Date.UTC(2025, month, 15, 21) / 3_600_000;

const OKLAHOMA = [35.5, -97.5] as const;
const SACRAMENTO_VALLEY = [39.5, -121.5] as const;
const SAHEL = [13.5, 2.5] as const;

describe('low-level moisture', () => {
  it('the Gulf of Mexico moistens the southern plains in early summer, not in winter', () => {
    const june = lowLevelMoisture(...OKLAHOMA, mid(5));
    expect(june).toBeGreaterThan(0.5);
    // January's moisture is mostly a share of its rain climate (about 28 mm, the normal 33): under half June's.
    expect(lowLevelMoisture(...OKLAHOMA, mid(0))).toBeLessThan(0.3);
    expect(lowLevelMoisture(...OKLAHOMA, mid(0))).toBeLessThan(june / 2);
  });

  it('the Sahel has the monsoon’s moisture in August and none in the dry season, though the Gulf of Guinea stays warm', () => {
    expect(lowLevelMoisture(...SAHEL, mid(7))).toBeGreaterThan(0.5);
    expect(lowLevelMoisture(...SAHEL, mid(0))).toBeLessThan(0.1);
  });
});

describe('marine stability', () => {
  it('caps California’s summer interior beside the cold Pacific, not the plains or the same valley in winter', () => {
    expect(marineStability(...SACRAMENTO_VALLEY, mid(6))).toBeGreaterThan(0.5);
    expect(marineStability(...SACRAMENTO_VALLEY, mid(0))).toBeLessThan(0.2);
    expect(marineStability(...OKLAHOMA, mid(6))).toBe(0);
  });
});

describe('steep lapse rates', () => {
  it('are steep in the Rockies’ lee and not on the lowlands far downwind of any mountains', () => {
    expect(steepLapseRates(35.5, -101.5)).toBeGreaterThan(0.5);
    expect(steepLapseRates(52.5, 20.5)).toBeLessThan(0.1);
  });
});

describe('deep shear', () => {
  it('peaks in spring over the southern plains and in summer further north', () => {
    expect(deepShear(34, mid(3))).toBeGreaterThan(2 * deepShear(34, mid(7)));
    expect(deepShear(46, mid(6))).toBeGreaterThan(deepShear(46, mid(0)));
  });

  it('follows the seasons of the southern hemisphere the other way round', () => {
    expect(deepShear(-34, mid(9))).toBeCloseTo(deepShear(34, mid(3)), 1);
    expect(deepShear(-34, mid(9))).toBeGreaterThan(2 * deepShear(-34, mid(1)));
  });

  it('is weak in the deep tropics all year', () => {
    for (let m = 0; m < 12; m++) expect(deepShear(5, mid(m))).toBeLessThan(0.15);
  });
});
