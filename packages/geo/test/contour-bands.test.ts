import turfArea from '@turf/area';
import polygonClipping, { type Geom } from 'polygon-clipping';
import { bboxRing, areaOf, contourBands, roundBandEdges, type GridValues, type PolygonCoordinates } from '../src/index.js';

const rect = bboxRing;

function grid(lat0: number, lon0: number, d: number, nLat: number, nLon: number, f: (lat: number, lon: number) => number): GridValues {
  const lats = Float64Array.from({ length: nLat }, (_, i) => lat0 + i * d);
  const lons = Float64Array.from({ length: nLon }, (_, j) => lon0 + j * d);
  const values = new Float64Array(nLat * nLon);
  for (let i = 0; i < nLat; i++) for (let j = 0; j < nLon; j++) values[i * nLon + j] = f(lats[i]!, lons[j]!);
  return { lats, lons, dLat: d, dLon: d, values };
}

const areaOfPolygon = (p: PolygonCoordinates) => turfArea({ type: 'Polygon', coordinates: p });

/** Coverage and non-overlap of a set of contour pieces over the field. */
function expectPartition(field: PolygonCoordinates[], pieces: PolygonCoordinates[]) {
  const fieldArea = areaOf(field);
  const total = pieces.reduce((sum, p) => sum + areaOfPolygon(p), 0);
  expect(Math.abs(total - fieldArea) / fieldArea).toBeLessThan(0.005);
  for (let a = 0; a < pieces.length; a++) {
    for (let b = a + 1; b < pieces.length; b++) {
      const overlap = polygonClipping.intersection(pieces[a] as unknown as Geom, pieces[b] as unknown as Geom);
      const overlapArea = overlap.reduce((sum, p) => sum + areaOfPolygon(p as PolygonCoordinates), 0);
      expect(overlapArea).toBeLessThan(fieldArea * 1e-6);
    }
  }
  // Every part of the field is covered: the pieces inside each stored polygon add up to it.
  for (const part of field) {
    const inside = pieces.reduce((sum, p) => {
      const common = polygonClipping.intersection(p as unknown as Geom, part as unknown as Geom);
      return sum + common.reduce((s, q) => s + areaOfPolygon(q as PolygonCoordinates), 0);
    }, 0);
    expect(Math.abs(inside - areaOfPolygon(part)) / areaOfPolygon(part)).toBeLessThan(0.005);
  }
}

describe('roundBandEdges: round widths chosen from the range', () => {
  it.each([
    // [min, max, expected edges]
    [0, 0, [0, 1]],
    [0, 9.99, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    [0, 10, [0, 2, 4, 6, 8, 10, 12]], // 10 must lie inside a band: width 1 would need 11 bands
    [0, 24, [0, 2.5, 5, 7.5, 10, 12.5, 15, 17.5, 20, 22.5, 25]],
    [3.2, 47.9, [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50]],
    [1234, 1290, [1230, 1240, 1250, 1260, 1270, 1280, 1290, 1300]],
    [812.4, 812.6, [812, 813]],
  ])('[%p, %p] -> %p', (min, max, edges) => {
    expect(roundBandEdges(min, max)).toEqual(edges);
  });

  it('first edge at or below min, last strictly above max, at most maxBands bands', () => {
    for (const [min, max] of [
      [0.3, 1999.7],
      [17, 17],
      [99.5, 100.5],
      [2400, 3100.2],
    ] as const) {
      const edges = roundBandEdges(min, max, { maxBands: 6 });
      expect(edges[0]).toBeLessThanOrEqual(min);
      expect(edges[edges.length - 1]).toBeGreaterThan(max);
      expect(edges.length - 1).toBeLessThanOrEqual(6);
    }
  });

  it('refuses a reversed or non-finite range', () => {
    expect(() => roundBandEdges(2, 1)).toThrow(RangeError);
    expect(() => roundBandEdges(Number.NaN, 1)).toThrow(RangeError);
  });
});

describe('contourBands: isobands clipped to the polygons', () => {
  // Cells of 0.01 degrees around a field at 42N; values vary in both directions with a saddle.
  const field = [rect(-93.4967, 42.0021, -93.4512, 42.0388), rect(-93.489, 42.011, -93.471, 42.027)];
  const second = [
    [
      [-93.44, 42.05],
      [-93.41, 42.052],
      [-93.43, 42.07],
      [-93.44, 42.05],
    ],
  ];
  const polygons = [field, second];
  const values = grid(
    41.99,
    -93.51,
    0.01,
    10,
    12,
    (lat, lon) => 300 + 4000 * (lat - 42) + 2500 * Math.sin((lon + 93.5) * 90) * Math.cos((lat - 42) * 120),
  );

  it('covers every part exactly once, with round edges', () => {
    let min = Infinity,
      max = -Infinity;
    for (const v of Array.from(values.values)) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    const edges = roundBandEdges(min, max);
    const bands = contourBands(polygons, values, edges);
    expect(bands.length).toBeGreaterThan(2);
    for (const band of bands) {
      expect(edges).toContain(band.lower);
      expect(band.upper).toBeGreaterThan(band.lower);
    }
    expectPartition(
      polygons,
      bands.flatMap((b) => b.polygons),
    );
  });

  it('a linear field: the bands are the stripes between the edge longitudes', () => {
    // value = 1000 x (lon + 93.5): edge 10 lies at lon -93.49, edge 20 at -93.48, ...
    const linear = grid(41.99, -93.51, 0.01, 6, 8, (_lat, lon) => 1000 * (lon + 93.51));
    const square = [rect(-93.495, 42.0, -93.475, 42.02)];
    const bands = contourBands([square], linear, [0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(bands.map((b) => b.lower)).toEqual([10, 20, 30]);
    const middle = bands.find((b) => b.lower === 20)!;
    const stripe = areaOfPolygon([rect(-93.49, 42.0, -93.48, 42.02)]);
    expect(middle.polygons.reduce((s, p) => s + areaOfPolygon(p), 0) / stripe).toBeCloseTo(1, 6);
    expectPartition(
      [square],
      bands.flatMap((b) => b.polygons),
    );
  });

  it('cells without a value (NaN) are cut out of the bands, and the bands beside them reach their edge', () => {
    // A linear field (0, 10, 20 at the valued columns' centres -93.51, -93.50, -93.49) with its
    // columns from -93.48 on missing (a coast): the square's part west of their squares' edge,
    // -93.485, holds band 10 and, where the missing column took 20, band 20.
    const coast = grid(41.99, -93.51, 0.01, 6, 8, (_lat, lon) => (lon > -93.4801 ? Number.NaN : 10 * Math.round((lon + 93.51) / 0.01)));
    const square = [rect(-93.495, 42.0, -93.475, 42.02)];
    const bands = contourBands([square], coast, [0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(bands.map((b) => b.lower)).toEqual([10, 20]);
    const land = [rect(-93.495, 42.0, -93.485, 42.02)];
    expectPartition(
      [land],
      bands.flatMap((b) => b.polygons),
    );
    // a square over missing cells only has no bands
    expect(contourBands([[rect(-93.475, 42.0, -93.47, 42.01)]], coast, [0, 10, 20])).toEqual([]);
  });

  it('a flat grid gives one band that is the polygons themselves', () => {
    const flat = grid(41.99, -93.51, 0.01, 10, 12, () => 0);
    const bands = contourBands(polygons, flat, roundBandEdges(0, 0));
    expect(bands).toEqual([{ lower: 0, upper: 1, polygons }]);
  });

  it('refuses a grid that does not reach beyond the polygons', () => {
    const small = grid(42.0, -93.49, 0.01, 3, 3, () => 1);
    expect(() => contourBands(polygons, small, [0, 1, 2])).toThrow(/does not cover/);
  });
});

describe('contourBands: closed contours away from the grid edge', () => {
  it('a basin (low centre, high all round) still gives every band once', () => {
    // 1 degree cells; the centre two cells are low, everything else high. Each band between
    // them is a ring around the basin, so its region is the outside of its lower contour.
    const basin = grid(39.5, 9.5, 1, 3, 4, (lat, lon) => (lat === 40.5 && lon === 10.5 ? 13 : lat === 40.5 && lon === 11.5 ? 10 : 75));
    const field = [rect(10, 40, 11.5, 41)];
    const edges = roundBandEdges(10, 75);
    expect(edges).toEqual([10, 20, 30, 40, 50, 60, 70, 80]);
    const bands = contourBands([field], basin, edges);
    expectPartition(
      [field],
      bands.flatMap((b) => b.polygons),
    );
    // The top band [70, 80) only reaches the field at its corners, far from the basin.
    const top = bands.find((b) => b.lower === 70)!;
    expect(top.polygons.reduce((s, p) => s + areaOfPolygon(p), 0) / areaOf([field])).toBeLessThan(0.05);
  });
});

describe('contourBands: a band around a rise next to the field edge', () => {
  it('leaves the rise out of the band around it, so every part of the field is in one band', () => {
    // 0.01 degree cells over the unit square, values rising northwards with a bump at the north
    // edge near the east corner: the bands above the bump's foot are closed inside the frame of
    // low values, and the band below them is a ring round them. @turf/isobands may give that
    // ring's inner edge as a Polygon of its own instead of a hole, which covered the rise twice.
    const d = 0.01;
    const rising = grid(-0.01, -0.01, d, 103, 103, (lat, lon) => {
      const bump = 4 * Math.exp(-((lon - 0.95) ** 2 + (lat - 1) ** 2) / 0.02);
      return 130 + 14 * lat + bump + 0.5 * Math.sin(7 * lon);
    });
    const field = [rect(0, 0, 1, 1)];
    const values = Array.from(rising.values);
    const bands = contourBands([field], rising, roundBandEdges(Math.min(...values), Math.max(...values)));
    expectPartition(
      [field],
      bands.flatMap((b) => b.polygons),
    );
  });
});
