// The lookups against a tiny generated grid whose every value is known.
import { createGeography, encodeGridFile, valueToStored, type GridShape } from '../src/index.js';
import { LAYERS } from '../src/layers.js';

// 4 x 2 cells of 90 degrees: centres at lon -135, -45, 45, 135 and lat 45, -45.
const shape: GridShape = { nlon: 4, nlat: 2, west: -180, north: 90, step: 90 };

function fixture() {
  const elevation = Int16Array.from([0, 1000, 2000, 3000, 400, 500, 600, 700]);
  const land = Float64Array.from([0, 1, 1, 0.5, 0, 0, 0.2, 1]);
  const coast = Float64Array.from([-100, 10, 400, 0, -900, -2500, -30, 60]);
  const inland = Float64Array.from([0, 0.2, 0.8, 1, 0, 0, 0.4, 0.6]);
  return encodeGridFile(shape, [
    { ...LAYERS.elevation, values: elevation },
    { ...LAYERS.land, values: Uint8Array.from(land, (v) => valueToStored(LAYERS.land, v)) },
    { ...LAYERS.coast, values: Int8Array.from(coast, (v) => valueToStored(LAYERS.coast, v)) },
    { ...LAYERS.continentality, values: Uint8Array.from(inland, (v) => valueToStored(LAYERS.continentality, v)) },
  ]);
}

describe('geography lookups on a fixture grid', () => {
  const g = createGeography(fixture());

  it('returns cell values at cell centres', () => {
    expect(g.elevationAt(45, -45)).toBe(1000);
    expect(g.elevationAt(-45, 135)).toBe(700);
    expect(g.landFractionAt(45, 135)).toBeCloseTo(0.5, 6);
    expect(g.continentalityAt(45, 45)).toBeCloseTo(0.8, 6);
    expect(g.isLandAt(45, -45)).toBe(true);
    expect(g.isLandAt(45, -135)).toBe(false);
  });

  it('decodes the coast distance through its square curve', () => {
    expect(g.coastDistanceKm(45, 45)).toBe(400);
    expect(g.coastDistanceKm(-45, -45)).toBe(-2500);
    // 10 km lies between codes 6 (9 km) and 7 (12.25 km): the nearer one is stored.
    expect(g.coastDistanceKm(45, -45)).toBe(9);
  });

  it('interpolates bilinearly between centres', () => {
    expect(g.elevationAt(45, 0)).toBe(1500);
    expect(g.elevationAt(0, -45)).toBe(750);
    expect(g.elevationAt(0, 0)).toBe((1000 + 2000 + 500 + 600) / 4);
  });

  it('wraps in longitude across the antimeridian', () => {
    expect(g.elevationAt(45, 180)).toBe(1500); // halfway between 135 E (3000) and 135 W (0)
    expect(g.elevationAt(45, -180)).toBe(1500);
    expect(g.elevationAt(45, 225)).toBe(g.elevationAt(45, -135));
    expect(g.elevationAt(45, -495)).toBe(g.elevationAt(45, -135));
  });

  it('holds the outer rows up to the poles', () => {
    expect(g.elevationAt(90, -45)).toBe(1000);
    expect(g.elevationAt(-90, -45)).toBe(500);
  });

  it('samples every layer at once with the same values', () => {
    const s = g.sampleAt(10, 20);
    expect(s.elevation).toBe(g.elevationAt(10, 20));
    expect(s.landFraction).toBe(g.landFractionAt(10, 20));
    expect(s.coastDistanceKm).toBe(g.coastDistanceKm(10, 20));
    expect(s.continentality).toBe(g.continentalityAt(10, 20));
  });

  it('samples every layer into an object of the caller, the values sampleAt gives', () => {
    const out = { elevation: -1, landFraction: -1, coastDistanceKm: -1, continentality: -1 };
    for (const [lat, lon] of [
      [10, 20],
      [45, 180],
      [-90, -45],
    ] as const) {
      expect(g.sampleInto(lat, lon, out)).toBe(out);
      expect({ ...out }).toEqual(g.sampleAt(lat, lon));
    }
  });

  it('rejects coordinates off the globe', () => {
    expect(() => g.elevationAt(91, 0)).toThrow(RangeError);
    expect(() => g.elevationAt(Number.NaN, 0)).toThrow(RangeError);
    expect(() => g.elevationAt(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('refuses a file whose layer encodings differ from the definitions', () => {
    const wrong = encodeGridFile(shape, [
      { ...LAYERS.elevation, values: new Int16Array(8) },
      { ...LAYERS.land, values: new Uint8Array(8) },
      { ...LAYERS.coast, kind: 'int16', curve: 'linear', values: new Int16Array(8) },
      { ...LAYERS.continentality, values: new Uint8Array(8) },
    ]);
    expect(() => createGeography(wrong)).toThrow(/coast is int16\/linear/);
  });
});
