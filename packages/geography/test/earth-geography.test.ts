// The committed Earth file against places whose geography is well known. Heights are cell
// means over 10 arc-minutes (about 18 km), so tolerances are those of such a grid, not of a
// station's height.
import { statSync } from 'node:fs';
import { GEOGRAPHY_FILE, earthGeography } from '../src/index.js';

const g = earthGeography();

describe('Earth geography file', () => {
  it('stays under 2 MiB', () => {
    expect(statSync(GEOGRAPHY_FILE).size).toBeLessThan(2 * 1024 * 1024);
  });

  it('is a global grid of 10 arc-minutes', () => {
    expect(g.shape).toEqual({ nlon: 2160, nlat: 1080, west: -180, north: 90, step: 1 / 6 });
  });

  it.each([
    ['Denver', 39.74, -104.99, 1609, 120],
    ['Tibetan plateau near Nagqu', 32, 88, 4700, 400],
    ['Lhasa valley', 29.65, 91.1, 3650, 800],
    ['La Paz and the Altiplano', -16.5, -68.15, 3800, 400],
    ['Mexico City', 19.43, -99.13, 2240, 300],
    ['Nairobi', -1.29, 36.82, 1700, 200],
    ['Greenland ice sheet summit', 72.58, -38.46, 3200, 300],
    ['South Pole', -90, 0, 2835, 300],
    ['Vostok', -78.46, 106.84, 3490, 300],
    ['Manaus, Amazon basin', -3.1, -60.0, 50, 60],
    ['Ames, Iowa', 42.03, -93.62, 290, 60],
  ])('%s stands about as high as it is', (_name, lat, lon, metres, tolerance) => {
    expect(Math.abs(g.elevationAt(lat, lon) - metres)).toBeLessThanOrEqual(tolerance);
    expect(g.isLandAt(lat, lon)).toBe(true);
  });

  it('has the Himalaya high around Mount Everest', () => {
    expect(g.elevationAt(27.99, 86.93)).toBeGreaterThan(5000);
  });

  it('has the Dead Sea rift low beside the Jordanian plateau', () => {
    // Heights below sea level are clipped to 0 by the source's grey ramp, so the rift is
    // low rather than negative.
    expect(g.elevationAt(31.5, 35.5)).toBeLessThan(250);
    expect(g.elevationAt(31.5, 36.2)).toBeGreaterThan(600);
  });

  it.each([
    ['Tokyo', 35.68, 139.69],
    ['London', 51.51, -0.13],
    ['Sydney', -33.87, 151.21],
    ['Miami', 25.79, -80.32],
  ])('%s is on land near the coast', (_name, lat, lon) => {
    expect(g.landFractionAt(lat, lon)).toBeGreaterThan(0.5);
    const km = g.coastDistanceKm(lat, lon);
    expect(km).toBeGreaterThanOrEqual(0);
    expect(km).toBeLessThan(100);
  });

  it.each([
    ['New Delhi', 28.61, 77.21, 600],
    ['Denver', 39.74, -104.99, 800],
    ['Moscow', 55.75, 37.62, 400],
    ['Manaus', -3.1, -60.0, 600],
  ])('%s lies far inland', (_name, lat, lon, km) => {
    expect(g.landFractionAt(lat, lon)).toBe(1);
    expect(g.coastDistanceKm(lat, lon)).toBeGreaterThan(km);
  });

  it.each([
    ['mid-Pacific', 0, -150],
    ['mid-Atlantic', 30, -40],
    ['Southern Ocean', -55, 90],
    ['North Pole', 90, 0],
    ['Caspian Sea', 42, 50.5],
  ])('%s is sea at 0 m', (_name, lat, lon) => {
    expect(g.landFractionAt(lat, lon)).toBe(0);
    expect(g.elevationAt(lat, lon)).toBe(0);
    expect(g.coastDistanceKm(lat, lon)).toBeLessThan(0);
  });

  it('keeps lakes that Natural Earth fills as land at their surface height', () => {
    // Natural Earth's land polygons cut out the Caspian Sea only; Lake Superior (183 m) and
    // Lake Victoria (1,134 m) are land here.
    expect(g.isLandAt(47.7, -87.5)).toBe(true);
    expect(Math.abs(g.elevationAt(47.7, -87.5) - 183)).toBeLessThan(60);
    expect(Math.abs(g.elevationAt(-1, 33) - 1134)).toBeLessThan(100);
  });

  it('has Greenland and Antarctica as land', () => {
    for (const [lat, lon] of [
      [72, -40],
      [78, -45],
      [-80, 0],
      [-75, 120],
      [-89.9, 45],
    ] as const) {
      expect(g.landFractionAt(lat, lon)).toBe(1);
    }
  });

  it('grows the distance to the coast monotonically going inland', () => {
    // Eastwards from the Pacific coast of Oregon (coast at 124.1 W), and northwards from
    // Houston (the Gulf coast at 95.5 W lies near 28.9 N) into the Great Plains.
    const transects: Array<Array<[number, number]>> = [
      Array.from({ length: 12 }, (_, k) => [44, -124 + 0.5 * k] as [number, number]),
      Array.from({ length: 12 }, (_, k) => [29.5 + 0.5 * k, -95.5] as [number, number]),
    ];
    for (const line of transects) {
      const km = line.map(([lat, lon]) => g.coastDistanceKm(lat, lon));
      for (let i = 1; i < km.length; i++) expect(km[i]!).toBeGreaterThan(km[i - 1]!);
      expect(km[0]!).toBeLessThan(60);
      expect(km[km.length - 1]!).toBeGreaterThan(300);
    }
  });

  it('is continental downwind of the continents and maritime upwind of them', () => {
    // Westerlies: Ireland's west coast faces the Atlantic, Siberia lies downwind of Eurasia.
    expect(g.continentalityAt(53, -10)).toBeLessThan(0.3);
    expect(g.continentalityAt(62, 130)).toBeGreaterThan(0.8);
    // The east coast of North America gets air from the continent, the west coast from the sea.
    expect(g.continentalityAt(40, -74)).toBeGreaterThan(g.continentalityAt(40, -124) + 0.3);
    expect(g.continentalityAt(0, -150)).toBeLessThan(0.02);
  });
});
