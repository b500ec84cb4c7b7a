// Precipitation and severe weather of the synthetic world follow Earth's geography: dry
// deserts, wet tropics, a South Asian monsoon; hail and tornadoes over land in the warm season,
// most in central North America; lightning over land and warm seas; nothing reported at sea.
import { isLandAt } from '@fieldcast/geography';
import type { BBox } from '../src/grid/grid-source.js';
import { SyntheticSource } from '../src/index.js';

const src = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });

/** Precipitation of one month of 2023 at a point, mm. */
function monthTotal(lat: number, lon: number, month: number): number {
  const s = src.pointSeriesSync('precipitation_rate', lon, lat, {
    startMs: Date.UTC(2023, month, 1),
    endMs: Date.UTC(2023, month + 1, 0, 23),
  });
  let t = 0;
  for (const v of s.values) t += v;
  return t;
}

describe('synthetic precipitation follows the geography', () => {
  it.each([
    ['Sahara', 23, 10],
    ['Atacama', -23, -69.5],
  ])('the %s desert is dry in January and July', (_name, lat, lon) => {
    expect(monthTotal(lat, lon, 0)).toBeLessThan(10);
    expect(monthTotal(lat, lon, 6)).toBeLessThan(10);
  });

  // Inner Australia is dry in its winter; its summer brings a few storms (Alice Springs,
  // Bureau of Meteorology 1991-2020: about 40 mm in January, 10 in July).
  it('the inner Australian desert is dry in July and has under 60 mm in January', () => {
    expect(monthTotal(-24, 134, 6)).toBeLessThan(10);
    expect(monthTotal(-24, 134, 0)).toBeLessThan(60);
  });

  it.each([
    ['Congo basin', 0, 22],
    ['Amazon', -3, -62],
    ['Singapore', 1.35, 103.8],
  ])('the %s is wet in January and July', (_name, lat, lon) => {
    expect(monthTotal(lat, lon, 0)).toBeGreaterThan(50);
    expect(monthTotal(lat, lon, 6)).toBeGreaterThan(50);
  });

  it.each([
    ['Mumbai', 19.1, 72.9],
    ['Kolkata', 22.6, 88.3],
  ])('South Asia (%s) is wet in the July monsoon and dry in January', (_name, lat, lon) => {
    expect(monthTotal(lat, lon, 6)).toBeGreaterThan(100);
    expect(monthTotal(lat, lon, 0)).toBeLessThan(5);
  });
});

const WARM_NORTH = { startMs: Date.UTC(2023, 4, 1), endMs: Date.UTC(2023, 7, 31) };
const COLD_NORTH = { startMs: Date.UTC(2023, 11, 1), endMs: Date.UTC(2024, 1, 28) };
const CENTRAL_NORTH_AMERICA: BBox = [-105, 30, -85, 48];
const WESTERN_EUROPE: BBox = [-5, 43, 25, 55];
const SAHARA: BBox = [-10, 18, 30, 30];
const INNER_AUSTRALIA: BBox = [125, -30, 140, -20];
const NORTH_ATLANTIC: BBox = [-50, 30, -30, 45];
const GULF_OF_MEXICO: BBox = [-94, 22, -84, 27];

describe('synthetic severe weather follows the geography', () => {
  it('has tornadoes in the warm season, most in central North America', () => {
    const plains = src.severeEvents('tornado', CENTRAL_NORTH_AMERICA, WARM_NORTH).length;
    expect(plains).toBeGreaterThan(50);
    expect(src.severeEvents('tornado', CENTRAL_NORTH_AMERICA, COLD_NORTH).length).toBeLessThan(plains / 20);
    expect(src.severeEvents('tornado', WESTERN_EUROPE, WARM_NORTH).length).toBeLessThan(plains / 2);
    expect(src.severeEvents('tornado', SAHARA, WARM_NORTH).length).toBeLessThan(plains / 4);
    // Inner Australia in its own warm season.
    expect(src.severeEvents('tornado', INNER_AUSTRALIA, COLD_NORTH).length).toBeLessThan(plains / 2);
  });

  it('puts hail, gusts, tornadoes and storm reports on land only', () => {
    for (const kind of ['hail', 'gust', 'tornado', 'storm_report'] as const) {
      expect(src.severeEvents(kind, NORTH_ATLANTIC, WARM_NORTH)).toHaveLength(0);
      expect(src.severeEvents(kind, GULF_OF_MEXICO, WARM_NORTH)).toHaveLength(0);
    }
    const reports = src.severeEvents('storm_report', [-100, 25, -80, 35], WARM_NORTH);
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((r) => isLandAt(r.lat, r.lon))).toBe(true);
  });

  it('has lightning over land and over warm seas, little over a cool ocean', () => {
    expect(src.severeEvents('lightning', CENTRAL_NORTH_AMERICA, WARM_NORTH).length).toBeGreaterThan(1000);
    expect(src.severeEvents('lightning', GULF_OF_MEXICO, WARM_NORTH).length).toBeGreaterThan(1000);
    expect(src.severeEvents('lightning', NORTH_ATLANTIC, COLD_NORTH).length).toBeLessThan(100);
  });
});
