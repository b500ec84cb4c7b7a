// The derivation script's building blocks on small shapes whose answers are known.
import { coastDistanceKm } from '../scripts/coast-distance.js';
import { continentality, westerlyWeight } from '../scripts/continentality.js';
import { landFraction, planarRings } from '../scripts/land-raster.js';
import type { GridShape } from '../src/grid-file.js';

type Ring = Array<[number, number]>;
const oneDegree: GridShape = { nlon: 360, nlat: 180, west: -180, north: 90, step: 1 };
const cell = (shape: GridShape, lat: number, lon: number) =>
  Math.floor((shape.north - lat) / shape.step) * shape.nlon + Math.floor((lon - shape.west) / shape.step);

describe('land raster', () => {
  it('fills a square exactly and splits a cell it half covers', () => {
    const square: Ring = [
      [10, 10],
      [20, 10],
      [20, 20.5],
      [10, 20.5],
      [10, 10],
    ];
    const f = landFraction([square], oneDegree, 4);
    expect(f[cell(oneDegree, 15.5, 15.5)]).toBe(1);
    expect(f[cell(oneDegree, 20.5, 15.5)]).toBe(0.5);
    expect(f[cell(oneDegree, 25.5, 15.5)]).toBe(0);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(10 * 10.5, 6);
  });

  it('cuts holes by the even-odd rule', () => {
    const outer: Ring = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const hole: Ring = [
      [4, 4],
      [6, 4],
      [6, 6],
      [4, 6],
      [4, 4],
    ];
    const f = landFraction([outer, hole], oneDegree, 2);
    expect(f[cell(oneDegree, 5.5, 5.5)]).toBe(0);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(100 - 4, 6);
  });

  it('draws a ring that crosses the antimeridian on both sides', () => {
    const island: Ring = [
      [178, -18],
      [-178, -18],
      [-178, -16],
      [178, -16],
      [178, -18],
    ];
    expect(planarRings(island)).toHaveLength(2);
    const f = landFraction([island], oneDegree, 2);
    expect(f[cell(oneDegree, -16.5, 179.5)]).toBe(1);
    expect(f[cell(oneDegree, -16.5, -179.5)]).toBe(1);
    expect(f[cell(oneDegree, -16.5, 0.5)]).toBe(0);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(8, 6);
  });

  it('closes a ring that winds round the South Pole through the pole', () => {
    const lons = Array.from({ length: 37 }, (_, k) => -180 + 10 * k);
    const antarctic: Ring = lons.map((lon) => [lon === 180 ? 180 : lon, -70] as [number, number]);
    const f = landFraction([antarctic], oneDegree, 2);
    expect(f[cell(oneDegree, -80.5, 0.5)]).toBe(1);
    expect(f[cell(oneDegree, -89.5, -179.5)]).toBe(1);
    expect(f[cell(oneDegree, -60.5, 0.5)]).toBe(0);
  });
});

describe('coast distance', () => {
  // Land west of the prime meridian between 40 S and 40 N, sea elsewhere.
  const land = new Float32Array(oneDegree.nlon * oneDegree.nlat);
  for (let lat = -39.5; lat < 40; lat++) for (let lon = -179.5; lon < 0; lon++) land[cell(oneDegree, lat, lon)] = 1;
  const d = coastDistanceKm(land, oneDegree);

  it('is signed, about half a cell next to the coast, and grows away from it', () => {
    expect(d[cell(oneDegree, 0.5, -0.5)]).toBeCloseTo(55.6, 0); // one degree of arc less half a cell
    expect(d[cell(oneDegree, 0.5, 0.5)]).toBeCloseTo(-55.6, 0);
    let previous = -Infinity;
    for (let lon = -0.5; lon > -30; lon--) {
      const km = d[cell(oneDegree, 0.5, lon)]!;
      expect(km).toBeGreaterThan(previous);
      previous = km;
    }
    expect(d[cell(oneDegree, 0.5, -10.5)]).toBeCloseTo(10 * 111.19 + 55.6, -1);
  });

  it('wraps round the antimeridian: land meets sea at 180 degrees too', () => {
    expect(d[cell(oneDegree, 0.5, -179.5)]).toBeCloseTo(55.6, 0);
    expect(d[cell(oneDegree, 0.5, 179.5)]).toBeCloseTo(-55.6, 0);
  });
});

describe('continentality', () => {
  it('follows the wind belts', () => {
    expect(westerlyWeight(45)).toBe(1);
    expect(westerlyWeight(-50)).toBe(1);
    expect(westerlyWeight(10)).toBe(0);
    expect(westerlyWeight(80)).toBe(0);
    expect(westerlyWeight(30)).toBeCloseTo(0.5, 12);
  });

  it('is high downwind of land and low upwind of it', () => {
    // A continent from 0 to 60 E at every latitude.
    const land = new Float32Array(oneDegree.nlon * oneDegree.nlat);
    for (let j = 0; j < oneDegree.nlat; j++) for (let i = 180; i < 240; i++) land[j * oneDegree.nlon + i] = 1;
    const c = continentality(land, oneDegree);
    // Westerlies at 45 N: the east coast (60 E) is continental, the west coast (0) maritime.
    expect(c[cell(oneDegree, 45.5, 59.5)]).toBeGreaterThan(0.9);
    expect(c[cell(oneDegree, 45.5, 0.5)]).toBeLessThan(0.1);
    // Trades at 10 N blow from the east: the other way round.
    expect(c[cell(oneDegree, 10.5, 0.5)]).toBeGreaterThan(0.9);
    expect(c[cell(oneDegree, 10.5, 59.5)]).toBeLessThan(0.1);
  });
});
