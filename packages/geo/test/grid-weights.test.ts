import turfArea from '@turf/area';
import polygonClipping, { type Geom } from 'polygon-clipping';
import { bboxRing, areaOf, cellWeights, type CellGrid, type PolygonCoordinates } from '../src/index.js';

const rect = bboxRing;

/** cell centres lat0 + i*d, lon0 + j*d */
function grid(lat0: number, lon0: number, d: number, nLat: number, nLon: number): CellGrid {
  return {
    lats: Float64Array.from({ length: nLat }, (_, i) => lat0 + i * d),
    lons: Float64Array.from({ length: nLon }, (_, j) => lon0 + j * d),
    dLat: d,
    dLon: d,
  };
}

/** Brute force: every cell against every polygon with a true polygon intersection. */
function bruteForce(polygons: PolygonCoordinates[], g: CellGrid): Float64Array {
  const out = new Float64Array(g.lats.length * g.lons.length);
  for (let i = 0; i < g.lats.length; i++) {
    for (let j = 0; j < g.lons.length; j++) {
      const lat = g.lats[i]!,
        lon = g.lons[j]!;
      const cell = [rect(lon - g.dLon / 2, lat - g.dLat / 2, lon + g.dLon / 2, lat + g.dLat / 2)];
      for (const p of polygons) {
        const parts = polygonClipping.intersection(p as unknown as Geom, cell as unknown as Geom);
        if (parts.length > 0) out[i * g.lons.length + j]! += turfArea({ type: 'MultiPolygon', coordinates: parts });
      }
    }
  }
  return out;
}

function expectSameWeights(actual: Float64Array, expected: Float64Array) {
  expect(actual.length).toBe(expected.length);
  const scale = Math.max(...expected);
  for (let k = 0; k < expected.length; k++) expect(Math.abs(actual[k]! - expected[k]!)).toBeLessThan(scale * 1e-9);
}

describe('cellWeights: area of each cell ∩ polygons (bbox-clip + area)', () => {
  const g = grid(42.0, -93.5, 0.01, 8, 8); // cells span 41.995..42.075, -93.505..-93.425

  it('a rectangle over whole and partial cells: each weight is the intersection area', () => {
    const field = [rect(-93.497, 42.001, -93.471, 42.023)];
    const w = cellWeights([field], g);
    expectSameWeights(w, bruteForce([field], g));
    // Partition of the field: the weights add up to its area.
    expect(w.reduce((a, b) => a + b, 0) / areaOf([field])).toBeCloseTo(1, 9);
    // Hand check of one fully covered cell: centred (42.01, -93.48), 0.01 x 0.01 degrees.
    const full = turfArea({ type: 'Polygon', coordinates: [rect(-93.485, 42.005, -93.475, 42.015)] });
    expect(w[1 * 8 + 2]! / full).toBeCloseTo(1, 9);
    // A cell the field does not reach is 0.
    expect(w[7 * 8 + 7]).toBe(0);
  });

  it('a field edge on a cell border: the neighbour beyond it gets 0', () => {
    const field = [rect(-93.485, 42.005, -93.475, 42.015)]; // exactly cell (1, 2)
    const w = cellWeights([field], g);
    expect(w[1 * 8 + 2]).toBeGreaterThan(0);
    expect(w.filter((x) => x > 0)).toHaveLength(1);
  });

  it('a concave polygon (U shape): degenerate bbox-clip edges add no area', () => {
    const u = [
      [-93.498, 42.002],
      [-93.44, 42.002],
      [-93.44, 42.06],
      [-93.452, 42.06],
      [-93.452, 42.014],
      [-93.486, 42.014],
      [-93.486, 42.06],
      [-93.498, 42.06],
      [-93.498, 42.002],
    ];
    const w = cellWeights([[u]], g);
    expectSameWeights(w, bruteForce([[u]], g));
    expect(w.reduce((a, b) => a + b, 0) / areaOf([[u]])).toBeCloseTo(1, 9);
  });

  it('holes and several polygons (a stored MultiPolygon field)', () => {
    const withHole = [rect(-93.5, 42.0, -93.46, 42.04), rect(-93.491, 42.011, -93.473, 42.027)];
    const second = [rect(-93.455, 42.045, -93.432, 42.071)];
    const polygons = [withHole, second];
    const w = cellWeights(polygons, g);
    expectSameWeights(w, bruteForce(polygons, g));
    expect(w.reduce((a, b) => a + b, 0) / areaOf(polygons)).toBeCloseTo(1, 9);
    // The cell centred (42.02, -93.48) lies wholly in the hole.
    expect(w[2 * 8 + 2]).toBe(0);
  });
});

describe('cellWeights: fields exactly on cell edges', () => {
  it('rounding slivers of a neighbouring cell are 0, on a 0.01 degree grid centred on whole hundredths', () => {
    // Cell centres -93.52 + j*0.01 in floating point: edges at centre ± 0.005 differ from the
    // field's decimal edges in the last bits, which used to give the neighbours ~1e-7 m² weights.
    const g = grid(-53.03, -42.09, 0.01, 6, 8);
    const field = [rect(-42.075, -53.015, -42.045, -52.995)];
    const w = cellWeights([field], g);
    expect(Array.from(w).filter((x) => x > 0)).toHaveLength(6);
    expect(w.reduce((a, b) => a + b, 0) / areaOf([field])).toBeCloseTo(1, 9);
  });

  it('a field smaller than one cell has one cell with its whole area', () => {
    const g = grid(42.0, -93.5, 0.01, 8, 8);
    const field = [rect(-93.4791, 42.0112, -93.4788, 42.0114)];
    const w = cellWeights([field], g);
    expect(Array.from(w).filter((x) => x > 0)).toHaveLength(1);
    expect(w[1 * 8 + 2]! / areaOf([field])).toBeCloseTo(1, 9);
  });
});
