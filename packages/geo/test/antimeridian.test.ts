import turfArea from '@turf/area';
import polygonClipping, { type Geom } from 'polygon-clipping';
import {
  areaOf,
  bboxRing,
  cellWeights,
  centroidOf,
  cutAtAntimeridian,
  normalLongitude,
  unwrapLongitudes,
  type CellGrid,
  type PolygonCoordinates,
} from '../src/index.js';

const rect = bboxRing;

describe('unwrapLongitudes: one continuous frame for a field cut at the antimeridian (RFC 7946 3.1.9)', () => {
  it('leaves a field away from the antimeridian as it is (same arrays)', () => {
    const polygons = [[rect(10, 0, 11, 1)], [rect(-20, 0, -19, 1)]];
    const out = unwrapLongitudes(polygons);
    expect(out.polygons).toBe(polygons);
    expect(out.shifts).toEqual([0, 0]);
  });

  it('moves the parts west of the widest gap a turn east', () => {
    const polygons = [[rect(179.5, 0, 180, 1)], [rect(-180, 0, -179.5, 1)], [rect(-179, 0, -178.5, 1)]];
    const out = unwrapLongitudes(polygons);
    expect(out.shifts).toEqual([0, 360, 360]);
    expect(out.polygons[1]).toEqual([rect(180, 0, 180.5, 1)]);
    expect(out.polygons[2]).toEqual([rect(181, 0, 181.5, 1)]);
  });

  it('a part touching 180 alone is not moved', () => {
    expect(unwrapLongitudes([[rect(179.5, 0, 180, 1)]]).shifts).toEqual([0]);
    expect(unwrapLongitudes([[rect(-180, 0, -179.5, 1)], [rect(-170, 0, -169, 1)]]).shifts).toEqual([0, 0]);
  });
});

describe('centroidOf across the antimeridian', () => {
  it('a field cut at ±180 has its centroid at the antimeridian, not at longitude 0', () => {
    // Vertex mean in the continuous frame: east part 179.98..180, west part 180..180.02 -> 180.
    const c = centroidOf([[rect(179.98, -17, 180, -16.98)], [rect(-180, -17, -179.98, -16.98)]]);
    expect(c.longitude).toBeCloseTo(180, 9);
    expect(c.latitude).toBeCloseTo(-16.99, 9);
  });

  it('brute force: the vertex mean of the parts shifted by hand, brought back into -180..180', () => {
    const east = [rect(179.9, 10, 180, 10.2)];
    const west = [rect(-180, 10, -179.7, 10.1)];
    const vertices = [...east[0]!.slice(0, 4), ...west[0]!.slice(0, 4).map(([lon, lat]) => [lon! + 360, lat!])];
    const lon = vertices.reduce((s, p) => s + p[0]!, 0) / vertices.length;
    const lat = vertices.reduce((s, p) => s + p[1]!, 0) / vertices.length;
    const c = centroidOf([east, west]);
    expect(c.longitude).toBeCloseTo(lon > 180 ? lon - 360 : lon, 9);
    expect(c.latitude).toBeCloseTo(lat, 9);
    expect(Math.abs(c.longitude)).toBeGreaterThan(179);
  });

  it('is the position the vertices give, without the noise of their sum', () => {
    // the vertex mean 42.02 sums to 42.019999999999996 in doubles
    expect(centroidOf([[rect(-93.62, 41.98, -93.58, 42.06)]])).toEqual({ latitude: 42.02, longitude: -93.6 });
  });

  it('normalLongitude', () => {
    expect([180, -180, 180.5, -180.5, 540, 359.5].map(normalLongitude)).toEqual([180, -180, -179.5, 179.5, 180, -0.5]);
  });
});

describe('cutAtAntimeridian', () => {
  it('cuts a polygon of the continuous frame at 180 and moves the east piece a turn west', () => {
    const pieces = cutAtAntimeridian([rect(179.9, 0, 180.1, 1)]);
    expect(pieces).toHaveLength(2);
    for (const p of pieces) for (const [lon] of p[0]!) expect(Math.abs(lon!)).toBeLessThanOrEqual(180);
    const total = pieces.reduce((s, p) => s + turfArea({ type: 'Polygon', coordinates: p }), 0);
    expect(total / turfArea({ type: 'Polygon', coordinates: [rect(179.9, 0, 180.1, 1)] })).toBeCloseTo(1, 9);
  });

  it('returns a polygon within -180..180 as it is', () => {
    const p = [rect(10, 0, 11, 1)];
    expect(cutAtAntimeridian(p)).toEqual([p]);
  });
});

describe('cellWeights across the antimeridian (continuous frame) against brute force', () => {
  // A 0.25 degree grid whose columns continue across 180 (centres ..., 179.875, 180.125, ...).
  const grid: CellGrid = {
    lats: Float64Array.from({ length: 6 }, (_, i) => -17.375 + i * 0.25),
    lons: Float64Array.from({ length: 8 }, (_, j) => 179.125 + j * 0.25),
    dLat: 0.25,
    dLon: 0.25,
  };
  const east: PolygonCoordinates = [
    [
      [179.3, -17.2],
      [180, -17.3],
      [180, -16.3],
      [179.6, -16.4],
      [179.3, -17.2],
    ],
  ];
  const west: PolygonCoordinates = [
    [
      [-180, -17.3],
      [-179.4, -17.1],
      [-179.5, -16.5],
      [-180, -16.3],
      [-180, -17.3],
    ],
  ];

  it('each cell straddling 180 gets the area of both sides; weights add up to the field', () => {
    const { polygons } = unwrapLongitudes([east, west]);
    const w = cellWeights(polygons, grid);
    // Brute force in the sent frame: each cell, and the same cell a turn away, against the parts.
    for (let i = 0; i < grid.lats.length; i++) {
      for (let j = 0; j < grid.lons.length; j++) {
        const lat = grid.lats[i]!,
          lon = grid.lons[j]!;
        let expected = 0;
        for (const shift of [0, -360]) {
          const cell = [rect(lon + shift - 0.125, lat - 0.125, lon + shift + 0.125, lat + 0.125)];
          for (const part of [east, west]) {
            const common = polygonClipping.intersection(part as unknown as Geom, cell as unknown as Geom);
            if (common.length > 0) expected += turfArea({ type: 'MultiPolygon', coordinates: common });
          }
        }
        expect(Math.abs(w[i * grid.lons.length + j]! - expected)).toBeLessThan(1e-6 * areaOf([east, west]));
      }
    }
    // @turf/area integrates sin(lat) along each edge by the trapezoid rule, so cutting slanted
    // edges into cells is not exactly additive (about 1e-4 here); the brute force above has the same cuts.
    expect(Math.abs(w.reduce((a, b) => a + b, 0) / areaOf([east, west]) - 1)).toBeLessThan(1e-3);
    // The column centred on 179.875..180.125 straddles: 180.125 (= -179.875) has weight from the west part.
    expect(w[2 * 8 + 4]).toBeGreaterThan(0);
  });
});
